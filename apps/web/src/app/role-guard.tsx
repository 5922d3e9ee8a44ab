import { PORTAL_HOME, portalOfRole, type Portal } from '@carteirinha/shared/roles';
import { Suspense, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { FullPageSpinner } from '@/components/ui/spinner';
import { lazyComponent } from '@/lib/lazy-component';
import { signInPathFor } from '@/lib/return-path';
import { isSigningOut, useMe } from './session';

// What a few sessions see instead of the portal: loaded only for them (the auth client and the QR come with them).
const TwoFactorEnrolment = lazyComponent(() => import('@/features/two-factor/components/two-factor-enrolment'), (m) => m.TwoFactorEnrolment);
const TwoFactorSessionCheck = lazyComponent(() => import('@/features/two-factor/components/two-factor-session-check'), (m) => m.TwoFactorSessionCheck);
const ClinicClosedPage = lazyComponent(() => import('@/features/tenancy/components/clinic-closed'), (m) => m.ClinicClosedPage);

function Screen({ children }: { children: ReactNode }) {
  return <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>;
}

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
  // A factor is TOTP or a passkey (ADR 029): with one, the session passes it; without, the user enrols one.
  const owesSecondFactor = (me.twoFactor.required || me.twoFactor.enabled) && !me.twoFactor.verified;
  if (owesSecondFactor && !me.twoFactor.enabled && !me.twoFactor.passkey) {
    return (
      <Screen>
        <TwoFactorEnrolment />
      </Screen>
    );
  }
  if (owesSecondFactor) {
    return (
      <Screen>
        <TwoFactorSessionCheck totp={me.twoFactor.enabled} />
      </Screen>
    );
  }
  // A closed clinic's team may only sign in and read /api/me (ADR 010): the page says why instead of a failing portal.
  if (portal === 'clinic' && me.clinic && me.clinic.standing !== 'open') {
    return (
      <Screen>
        <ClinicClosedPage clinicName={me.clinic.name} standing={me.clinic.standing} />
      </Screen>
    );
  }
  return <Outlet />;
}
