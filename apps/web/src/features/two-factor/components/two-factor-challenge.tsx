import { messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { authClient } from '@/lib/auth-client';
import { TotpCodeForm } from './totp-code-form';

const t = messages.twoFactor;

/**
 * The second step of a sign-in for an account with two-factor: a code from the authenticator app, or one of the
 * backup codes. better-auth keeps the pending sign-in in a short-lived cookie between the two steps; a code already
 * spent ends the attempt, and the person signs in again.
 */
export function TwoFactorChallenge({ onVerified, onRestart }: { onVerified: () => Promise<void>; onRestart: () => void }) {
  const [useBackup, setUseBackup] = useState(false);

  const verify = async (code: string) => {
    const { error } = useBackup ? await authClient.twoFactor.verifyBackupCode({ code }) : await authClient.twoFactor.verifyTotp({ code });
    if (error?.code === 'TOTP_REUSED') {
      // The server ended that sign-in attempt: start again from the password.
      toast.error(t.challengeTitle, { description: t.codeReused });
      onRestart();
      return null;
    }
    if (error) return error.status === 429 ? messages.auth.tooManyAttempts : t.invalidCode;
    await onVerified();
    return null;
  };

  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h2 className="font-semibold">{t.challengeTitle}</h2>
        <p className="text-sm text-muted-foreground">{t.challengeDescription}</p>
      </div>
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
    </div>
  );
}
