import { messages } from '@carteirinha/shared/messages';
import { SettingsIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ClinicSettingsPage() {
  return (
    <>
      <PageHeader title="Configurações" description="Dados e preferências da clínica" />
      <EmptyState icon={SettingsIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
