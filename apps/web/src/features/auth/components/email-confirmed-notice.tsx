import { EMAIL_CONFIRMED_PARAM } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useMe } from '@/app/session';
import { acrossPageChange, toast } from '@/lib/toasts';

/** One toast, whichever render shows it first (React's strict mode runs effects twice). */
const TOAST_ID = 'email-confirmed';
/** Long enough to read and reach 'Entrar'; it can be closed sooner. */
const TOAST_DURATION_MS = 15_000;

/**
 * The e-mail confirmation link lands on `/?email-confirmado=1` (auth.ts), or with `&error=…` when better-auth refused
 * it. Says so once, then takes the marker out of the address so a reload or a shared link does not say it again.
 * Confirming signs nobody in (ADR 006): 'Entrar' goes to /auth, which sends someone already signed in onwards. An
 * owner still signed in with no clinic yet — the link opened in the same browser — goes straight back to onboarding,
 * where the plan they chose waits (issue 23).
 */
export function EmailConfirmedNotice() {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const { data: me, isPending } = useMe();
  const landed = searchParams.has(EMAIL_CONFIRMED_PARAM);
  const failed = searchParams.has('error');

  useEffect(() => {
    if (!landed || isPending) return;
    const action = { label: messages.auth.signInAction, onClick: () => void navigate('/auth') };
    if (failed) {
      toast.error(messages.auth.emailVerifyFailedTitle, { id: TOAST_ID, description: messages.auth.emailVerifyFailed, duration: TOAST_DURATION_MS, action });
    } else if (me && !me.role) {
      // Read on the onboarding page it leads to.
      toast.success(messages.auth.emailVerifiedTitle, { id: acrossPageChange(TOAST_ID), description: messages.tenancy.emailVerifiedOnboarding, duration: TOAST_DURATION_MS });
      void navigate('/onboarding', { replace: true });
      return;
    } else {
      toast.success(messages.auth.emailVerifiedTitle, { id: TOAST_ID, description: messages.auth.emailVerified, duration: TOAST_DURATION_MS, action });
    }
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(EMAIL_CONFIRMED_PARAM);
        next.delete('error');
        return next;
      },
      { replace: true },
    );
  }, [landed, failed, isPending, me, navigate, setSearchParams]);

  return null;
}
