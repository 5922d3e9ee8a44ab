import { KeyRoundIcon } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { PasskeyError } from '../lib/webauthn';

type PasskeyButtonProps = {
  label: string;
  pendingLabel: string;
  /** The ceremony; its PasskeyError is shown under the button, in pt-BR. */
  run: () => Promise<void>;
  /** What to offer under an error: the way back to the password. */
  fallback?: ReactNode;
  variant?: 'default' | 'outline';
};

/**
 * A button that runs a passkey ceremony and says, right under it, why it did not work (§8: cancelled, already
 * registered, unsupported browser, wrong domain), with the way back to the password beside the message.
 */
export function PasskeyButton({ label, pendingLabel, run, fallback, variant = 'outline' }: PasskeyButtonProps) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const onClick = async () => {
    setPending(true);
    setFailure(null);
    try {
      await run();
    } catch (error) {
      if (!(error instanceof PasskeyError) && !(error instanceof ApiError)) throw error;
      setFailure(error.message);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="grid gap-2">
      <Button type="button" variant={variant} className="w-full" disabled={pending} onClick={asyncHandler(onClick)}>
        <KeyRoundIcon aria-hidden="true" />
        {pending ? pendingLabel : label}
      </Button>
      <div aria-live="polite" className="grid gap-1">
        {failure ? (
          <>
            <p role="alert" className="text-sm text-destructive">
              {failure}
            </p>
            {fallback}
          </>
        ) : null}
      </div>
    </div>
  );
}
