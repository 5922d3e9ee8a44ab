import { messages } from '@carteirinha/shared/messages';
import { passSecondFactorWithPasskey } from '../api/passkey-auth';
import { PasskeyButton } from './passkey-button';

const t = messages.passkeys;

/** 'Usar chave de segurança': the second factor with a passkey or security key, beside the authenticator app. */
export function PasskeySecondFactor({ onVerified }: { onVerified: () => Promise<void> }) {
  return (
    <div className="grid gap-2">
      <p className="text-sm text-muted-foreground">{t.securityKeyDescription}</p>
      <PasskeyButton
        label={t.useSecurityKey}
        pendingLabel={t.signingIn}
        run={async () => {
          await passSecondFactorWithPasskey();
          await onVerified();
        }}
      />
    </div>
  );
}
