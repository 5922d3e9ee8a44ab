import { messages } from '@carteirinha/shared/messages';
import { LayoutDashboardIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminDashboardPage() {
  return (
    <>
      <PageHeader title="Dashboard" description="Visão geral da plataforma" />
      <EmptyState icon={LayoutDashboardIcon} title={messages.common.noData} />
    </>
  );
}
