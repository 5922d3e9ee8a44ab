import { PORTAL_HOME, portalOfRole, type Portal } from '@carteirinha/shared/roles';
import { Navigate, Outlet } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { TwoFactorEnrolment } from '@/features/two-factor/components/two-factor-enrolment';
import { TwoFactorSessionCheck } from '@/features/two-factor/components/two-factor-session-check';
import { useMe } from './session';

/**
 * Lets through only users whose role belongs to `portal` (specification §2 "Role guard"). A visitor who is signed out
 * goes to /auth; a user without a role (an onboarding left half-way) goes back to /onboarding; anyone else goes to
 * their own portal. The server enforces the same rule on every API call.
 */
export function RoleGuard({ portal }: { portal: Portal }) {
  const { data: me, isPending } = useMe();

  if (isPending) return <FullPageSpinner />;
  if (!me) return <Navigate to="/auth" replace />;
  if (!me.role) return <Navigate to="/onboarding" replace />;
  const ownPortal = portalOfRole(me.role);
  if (ownPortal !== portal) return <Navigate to={PORTAL_HOME[ownPortal]} replace />;
  // The server refuses this portal's API until then (TWO_FACTOR_REQUIRED); the page says what to do instead.
  if (me.twoFactor.required && !me.twoFactor.enabled) return <TwoFactorEnrolment />;
  if (me.twoFactor.enabled && !me.twoFactor.verified) return <TwoFactorSessionCheck />;
  return <Outlet />;
}
