import { messages } from '@carteirinha/shared/messages';
import { roleHasPermission, type Permission } from '@carteirinha/shared/permissions';
import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { LockIcon } from 'lucide-react';
import { Link, Outlet } from 'react-router';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { useMe } from './session';

/**
 * Lets through, inside a portal, only roles holding `permission` (packages/shared/src/permissions.ts): the sidebar
 * hides such pages from the other roles, and this keeps them shut when opened by their address. It sits below the
 * portal's RoleGuard, so the user is already known; the server refuses the same data anyway.
 */
export function PermissionGuard({ permission }: { permission: Permission }) {
  const { data: me } = useMe();
  if (me?.role && roleHasPermission(me.role, permission)) return <Outlet />;
  const home = me?.role ? PORTAL_HOME[portalOfRole(me.role)] : '/';
  return (
    <>
      <PageHeader title={messages.accessDenied.title} />
      <EmptyState icon={LockIcon} title={messages.accessDenied.text}>
        <Button asChild variant="outline">
          <Link to={home}>{messages.accessDenied.back}</Link>
        </Button>
      </EmptyState>
    </>
  );
}
