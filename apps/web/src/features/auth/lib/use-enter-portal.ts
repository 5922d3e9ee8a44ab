import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { meQueryOptions } from '@/app/session';

/**
 * After sign-in or sign-up: reload who is signed in and go to that role's portal (specification §4). A user with no
 * role stays on /auth, which then shows the "no access" panel from the refreshed ['me'].
 */
export function useEnterPortal(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return async () => {
    const me = await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 }).catch(() => null);
    if (me?.role) await navigate(PORTAL_HOME[portalOfRole(me.role)], { replace: true });
  };
}
