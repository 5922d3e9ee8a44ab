import { messages } from '@carteirinha/shared/messages';
import { MapPinIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function PatientNetworkPage() {
  return (
    <>
      <PageHeader title="Rede Credenciada" description="Clínicas e laboratórios onde você tem desconto" />
      <EmptyState icon={MapPinIcon} title={messages.common.noData} />
    </>
  );
}
