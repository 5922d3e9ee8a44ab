import { messages } from '@carteirinha/shared/messages';
import { PackageIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminPlansPage() {
  return (
    <>
      <PageHeader title="Gestão de Planos" description="Planos oferecidos às clínicas" />
      <EmptyState icon={PackageIcon} title={messages.common.noData} />
    </>
  );
}
