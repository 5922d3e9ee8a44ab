import { messages } from '@carteirinha/shared/messages';
import { HistoryIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function PatientHistoryPage() {
  return (
    <>
      <PageHeader title="Histórico" description="Seus atendimentos e quanto você economizou" />
      <EmptyState icon={HistoryIcon} title={messages.common.noData} />
    </>
  );
}
