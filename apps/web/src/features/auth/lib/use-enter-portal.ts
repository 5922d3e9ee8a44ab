import { PLAN_PARAM } from '@carteirinha/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { meQueryOptions } from '@/app/session';
import { landingPathFor, RETURN_PARAM } from '@/lib/return-path';

/** /onboarding, with the plan picked on the landing page's pricing card (`?plano=`) when the visitor came with one. */
export function onboardingPath(searchParams: URLSearchParams): string {
  const planId = searchParams.get(PLAN_PARAM);
  return planId ? `/onboarding?${new URLSearchParams({ [PLAN_PARAM]: planId }).toString()}` : '/onboarding';
}

/**
 * After sign-in or sign-up: reload who is signed in and go to that role's portal (specification §4), or back to the
 * page of that portal the visitor asked for (`?next=`, checked by `landingPathFor`). A user with no
 * role yet — a new account on the platform's host — goes on to /onboarding to create their clinic. Answers whether
 * anyone is signed in (a sign-up of a registered address answers like a new one but starts no session).
 */
export function useEnterPortal(): () => Promise<boolean> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();

  return async () => {
    const me = await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 }).catch(() => null);
    if (!me) return false;
    await navigate(me.role ? landingPathFor(me.role, searchParams.get(RETURN_PARAM)) : onboardingPath(searchParams), { replace: true });
    return true;
  };
}
