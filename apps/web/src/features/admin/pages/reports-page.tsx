import { messages } from '@carteirinha/shared/messages';
import { ChartColumnIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminReportsPage() {
  return (
    <>
      <PageHeader title="Relatórios" description="Relatórios e estatísticas da plataforma" />
      <EmptyState icon={ChartColumnIcon} title={messages.common.noData} />
    </>
  );
}
