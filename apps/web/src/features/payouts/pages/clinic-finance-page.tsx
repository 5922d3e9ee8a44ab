import { messages } from '@carteirinha/shared/messages';
import { WalletIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ClinicFinancePage() {
  return (
    <>
      <PageHeader title="Financeiro" description="Receitas e repasses da clínica" />
      <EmptyState icon={WalletIcon} title={messages.common.noData} />
    </>
  );
}
