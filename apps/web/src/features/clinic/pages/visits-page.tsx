import { messages } from '@carteirinha/shared/messages';
import { ClipboardListIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function VisitsPage() {
  return (
    <>
      <PageHeader title="Atendimentos" description="Atendimentos registrados na clínica" />
      <EmptyState icon={ClipboardListIcon} title={messages.common.noData} />
    </>
  );
}
