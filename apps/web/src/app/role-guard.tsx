import { PORTAL_HOME, portalOfRole, type Portal } from '@carteirinha/shared/roles';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { FullPageSpinner } from '@/components/ui/spinner';
import { ClinicClosedPage } from '@/features/tenancy/components/clinic-closed';
import { TwoFactorEnrolment } from '@/features/two-factor/components/two-factor-enrolment';
import { TwoFactorSessionCheck } from '@/features/two-factor/components/two-factor-session-check';
import { signInPathFor } from '@/lib/return-path';
import { isSigningOut, useMe } from './session';

/**
 * Lets through only users whose role belongs to `portal` (specification §2 "Role guard"). A visitor who is signed out
 * goes to /auth, which brings them back here after signing in; a user without a role (an onboarding left half-way)
 * goes back to /onboarding; anyone else goes to
 * their own portal. The server enforces the same rule on every API call.
 */
export function RoleGuard({ portal }: { portal: Portal }) {
  const session = useMe();
  const { data: me, isPending } = session;
  const location = useLocation();

  if (isPending) return <FullPageSpinner />;
  // Not knowing who is signed in (offline, a server error) is not being signed out: say so and offer to ask again.
  if (session.error && !me) {
    return (
      <main className="grid min-h-svh place-items-center p-4">
        <ErrorState {...retryPropsOf(session)} />
      </main>
    );
  }
  // After signing in, the visitor comes back to the page asked for (a link in an e-mail, a bookmark); not after 'Sair'.
  if (!me) {
    const signInPath = isSigningOut() ? '/auth' : signInPathFor(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to={signInPath} replace />;
  }
  if (!me.role) return <Navigate to="/onboarding" replace />;
  const ownPortal = portalOfRole(me.role);
  if (ownPortal !== portal) return <Navigate to={PORTAL_HOME[ownPortal]} replace />;
  // The server refuses this portal's API until then (TWO_FACTOR_REQUIRED); the page says what to do instead.
  if (me.twoFactor.required && !me.twoFactor.enabled) return <TwoFactorEnrolment />;
  if (me.twoFactor.enabled && !me.twoFactor.verified) return <TwoFactorSessionCheck />;
  // A closed clinic's team may only sign in and read /api/me (ADR 010): the page says why instead of a failing portal.
  if (portal === 'clinic' && me.clinic && me.clinic.standing !== 'open') {
    return <ClinicClosedPage clinicName={me.clinic.name} standing={me.clinic.standing} />;
  }
  return <Outlet />;
}
