import { messages } from '@carteirinha/shared/messages';
import { SettingsIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Configurações" description="Configurações gerais da plataforma" />
      <EmptyState icon={SettingsIcon} title={messages.common.notAvailableYet} />
    </>
  );
}
