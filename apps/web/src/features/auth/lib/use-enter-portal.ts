import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { meQueryOptions } from '@/app/session';

/**
 * After sign-in or sign-up: reload who is signed in and go to that role's portal (specification §4). A user with no
 * role yet — a new account on the platform's host — goes on to /onboarding to create their clinic.
 */
export function useEnterPortal(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  return async () => {
    const me = await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 }).catch(() => null);
    if (!me) return;
    await navigate(me.role ? PORTAL_HOME[portalOfRole(me.role)] : '/onboarding', { replace: true });
  };
}
