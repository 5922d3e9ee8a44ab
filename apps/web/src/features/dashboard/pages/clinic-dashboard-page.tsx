import { messages } from '@carteirinha/shared/messages';
import { LayoutDashboardIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function ClinicDashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Visão geral da clínica" />
      <EmptyState icon={LayoutDashboardIcon} title={messages.common.noData} />
    </>
  );
}
