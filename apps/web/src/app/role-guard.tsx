import { portalOfRole, type Portal } from '@carteirinha/shared/roles';
import { Navigate, Outlet } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useMe } from './session';

/**
 * Lets through only users whose role belongs to `portal` (specification §2 "Role guard"); anyone else goes to /auth,
 * which sends a signed-in user on to their own portal. The server enforces the same rule on every API call.
 */
export function RoleGuard({ portal }: { portal: Portal }) {
  const { data: me, isPending } = useMe();

  if (isPending) return <FullPageSpinner />;
  if (!me?.role || portalOfRole(me.role) !== portal) return <Navigate to="/auth" replace />;
  return <Outlet />;
}
