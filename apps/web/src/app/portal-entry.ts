import { messages } from '@carteirinha/shared/messages';
import { PORTAL_HOME, portalOfRole } from '@carteirinha/shared/roles';
import { useMe } from './session';

/**
 * Where a visitor of a public page (the landing pages) goes to reach their account: /auth ('Entrar') when signed out
 * (or while that is not known yet), their own portal ('Meu portal') when signed in, and /onboarding for an account
 * that has no role yet (issue 13, item 14).
 */
export function usePortalEntry(signInLabel: string): { to: string; label: string; signedIn: boolean } {
  const { data: me } = useMe();
  if (!me) return { to: '/auth', label: signInLabel, signedIn: false };
  if (!me.role) return { to: '/onboarding', label: messages.portalEntry.continueSignUp, signedIn: true };
  return { to: PORTAL_HOME[portalOfRole(me.role)], label: messages.portalEntry.myPortal, signedIn: true };
}
