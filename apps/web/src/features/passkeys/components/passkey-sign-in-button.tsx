import { messages } from '@carteirinha/shared/messages';
import { signInWithPasskey } from '../api/passkey-auth';
import { PasskeyButton } from './passkey-button';

const t = messages.passkeys;

/**
 * 'Entrar com passkey' on /auth: no e-mail, no password; the device offers this site's passkeys. On a failure the
 * message says why, and the e-mail and password form stays right there (`onUsePassword` moves the focus to it).
 */
export function PasskeySignInButton({ onSignedIn, onUsePassword }: { onSignedIn: () => Promise<void>; onUsePassword: () => void }) {
  return (
    <PasskeyButton
      label={t.signIn}
      pendingLabel={t.signingIn}
      run={async () => {
        await signInWithPasskey();
        await onSignedIn();
      }}
      fallback={
        <button type="button" className="justify-self-start text-sm font-medium text-primary underline-offset-4 hover:underline" onClick={onUsePassword}>
          {t.usePassword}
        </button>
      }
    />
  );
}
