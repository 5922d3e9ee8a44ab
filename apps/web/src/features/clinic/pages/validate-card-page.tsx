import { messages } from '@carteirinha/shared/messages';
import { ScanLineIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ValidateCardPage() {
  return (
    <>
      <PageHeader title="Validar Cartão" description="Valide o cartão do paciente pelo número impresso" />
      <EmptyState icon={ScanLineIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
