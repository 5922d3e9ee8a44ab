import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { authClient } from '@/lib/auth-client';
import { toast } from '@/lib/toasts';
import { PasskeySecondFactor } from '@/features/passkeys/components/passkey-second-factor';
import { TotpCodeForm } from './totp-code-form';

const t = messages.twoFactor;

/** Answers after which a pending sign-in is over: a spent code, too many wrong codes, or the 10 minutes gone. */
const ATTEMPT_OVER: Record<string, string> = {
  [AUTH_ERROR_CODES.totpReused]: t.codeReused,
  // The account was deactivated between the password and the code.
  [AUTH_ERROR_CODES.accountDeactivated]: messages.adminUsers.accountDeactivated,
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: t.attemptsExhausted,
  INVALID_TWO_FACTOR_COOKIE: t.attemptsExhausted,
};

type TwoFactorChallengeProps = {
  onVerified: () => Promise<void>;
  /** During a sign-in: back to the password step (the pending attempt is over). Absent for a signed-in session. */
  onRestart?: () => void;
  /** Whether the code of the authenticator app is offered (the user has TOTP); a passkey is always offered. */
  totp?: boolean;
};

/**
 * A code from the authenticator app, or one of the backup codes: the second step of a sign-in, or the check of a
 * session that has not passed it yet. better-auth keeps a pending sign-in in a short-lived cookie between the two
 * steps; when that attempt is over, the person starts again from the password.
 */
export function TwoFactorChallenge({ onVerified, onRestart, totp = true }: TwoFactorChallengeProps) {
  const [useBackup, setUseBackup] = useState(false);

  const verify = async (code: string) => {
    const { error } = useBackup ? await authClient.twoFactor.verifyBackupCode({ code }) : await authClient.twoFactor.verifyTotp({ code });
    if (!error) {
      await onVerified();
      return null;
    }
    const over = error.code ? ATTEMPT_OVER[error.code] : undefined;
    if (over && onRestart) {
      toast.error(t.challengeTitle, { description: over });
      onRestart();
      return null;
    }
    if (error.code === AUTH_ERROR_CODES.totpReused) return t.codeReused;
    if (error.code === AUTH_ERROR_CODES.accountDeactivated) return messages.adminUsers.accountDeactivated;
    return error.status === 429 ? messages.auth.tooManyAttempts : t.invalidCode;
  };

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="font-semibold">{t.challengeTitle}</h2>
        <p className="text-sm text-muted-foreground">{totp ? t.challengeDescription : messages.passkeys.securityKeyDescription}</p>
      </div>
      {totp ? (
        <>
          <TotpCodeForm
            key={useBackup ? 'backup' : 'totp'}
            label={useBackup ? t.backupCode : t.code}
            hint={useBackup ? t.backupCodesHint : t.codeHint}
            backupCode={useBackup}
            onSubmit={verify}
          />
          <Button type="button" variant="link" className="justify-self-start px-0" onClick={() => setUseBackup((value) => !value)}>
            {useBackup ? t.useAuthenticator : t.useBackupCode}
          </Button>
        </>
      ) : null}
      <PasskeySecondFactor onVerified={onVerified} />
      {onRestart ? (
        <Button type="button" variant="ghost" className="justify-self-start" onClick={onRestart}>
          {t.back}
        </Button>
      ) : null}
    </div>
  );
}
