import { messages } from '@carteirinha/shared/messages';
import { Building2Icon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminClinicsPage() {
  return (
    <>
      <PageHeader title="Gestão de Clínicas" description="Gerencie as clínicas da plataforma" />
      <EmptyState icon={Building2Icon} title={messages.empty.clinics} />
    </>
  );
}
