import { messages } from '@carteirinha/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { useState, type FormEvent } from 'react';
import { meQueryOptions } from '@/app/session';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { authServerMessage } from '@/features/auth/lib/auth-errors';
import { toast } from '@/lib/toasts';
import { addPasskey } from '@/features/passkeys/api/add-passkey';
import { PasskeyButton } from '@/features/passkeys/components/passkey-button';
import { totpSecretOf } from '../lib/totp-uri';
import { TotpCodeForm } from './totp-code-form';
import { TwoFactorPage } from './two-factor-page';

const t = messages.twoFactor;

type Enrolment = { totpURI: string; backupCodes: string[] };

function PasswordStep({ onEnrolled }: { onEnrolled: (enrolment: Enrolment) => void }) {
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    const { data, error } = await authClient.twoFactor.enable({ password }).finally(() => setPending(false));
    if (error || !data || !('totpURI' in data)) {
      toast.error(t.enrolTitle, { description: error?.status === 400 ? t.wrongPassword : authServerMessage(error ?? { status: 500 }) });
      return;
    }
    onEnrolled({ totpURI: data.totpURI, backupCodes: data.backupCodes });
  };

  return (
    <form noValidate aria-label={t.enrolTitle} className="grid gap-4" onSubmit={asyncHandler(onSubmit)}>
      <TextField label={t.confirmPassword} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <Button type="submit" disabled={pending || password.length === 0}>
        {t.start}
      </Button>
    </form>
  );
}

function ScanStep({ enrolment, onVerified }: { enrolment: Enrolment; onVerified: () => Promise<void> }) {
  const verify = async (code: string) => {
    const { error } = await authClient.twoFactor.verifyTotp({ code });
    if (error) return t.invalidCode;
    toast.success(t.enabled);
    await onVerified();
    return null;
  };

  return (
    <div className="grid gap-6">
      <p className="text-sm">{t.scanQr}</p>
      <div className="justify-self-center rounded-lg border bg-white p-3">
        <QRCodeSVG value={enrolment.totpURI} size={176} title={t.scanQr} />
      </div>
      <div className="grid gap-1">
        <p className="text-sm font-medium">{t.secretKey}</p>
        <code data-testid="totp-secret" className="rounded bg-muted px-2 py-1 font-mono text-sm break-all">
          {totpSecretOf(enrolment.totpURI)}
        </code>
      </div>
      <div className="grid gap-2">
        <p className="text-sm font-medium">{t.backupCodesTitle}</p>
        <p className="text-sm text-muted-foreground">{t.backupCodesHint}</p>
        <ul data-testid="backup-codes" aria-label={t.backupCodesTitle} className="grid grid-cols-2 gap-1 rounded bg-muted p-3 font-mono text-sm">
          {enrolment.backupCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </div>
      <TotpCodeForm label={t.code} hint={t.codeHint} onSubmit={verify} />
    </div>
  );
}

/**
 * Shown instead of the portal to an admin who must use two-factor (admin Configurações) and has no factor yet:
 * confirm the password, scan the QR code, keep the backup codes, and prove it with a first code.
 */
export function TwoFactorEnrolment() {
  const queryClient = useQueryClient();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);

  return (
    <TwoFactorPage title={t.enrolTitle} description={t.enrolDescription}>
      {enrolment ? (
        <ScanStep enrolment={enrolment} onVerified={() => queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey })} />
      ) : (
        <>
          <PasswordStep onEnrolled={setEnrolment} />
          <div className="grid gap-2 border-t pt-4">
            <p className="text-sm text-muted-foreground">{messages.passkeys.enrolWithPasskey}</p>
            <PasskeyButton
              label={messages.passkeys.add}
              pendingLabel={messages.passkeys.adding}
              run={async () => {
                await addPasskey(messages.passkeys.enrolPasskeyName);
                await queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey });
              }}
            />
          </div>
        </>
      )}
    </TwoFactorPage>
  );
}
