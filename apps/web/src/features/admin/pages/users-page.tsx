import { messages } from '@carteirinha/shared/messages';
import { UsersIcon } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';

export function AdminUsersPage() {
  return (
    <>
      <PageHeader title="Usuários" description="Gerencie as funções dos usuários da plataforma" />
      <EmptyState icon={UsersIcon} title={messages.empty.users} />
    </>
  );
}
