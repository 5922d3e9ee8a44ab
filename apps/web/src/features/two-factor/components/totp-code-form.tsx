import { messages } from '@carteirinha/shared/messages';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';

type TotpCodeFormProps = {
  label: string;
  hint: string;
  /** Checks the code; answers the message to show under the field, or null when it was accepted. */
  onSubmit: (code: string) => Promise<string | null>;
  /** A backup code is letters and digits; an authenticator code is six digits. */
  backupCode?: boolean;
};

/** One code field and 'Verificar': the last step of enrolment and of a two-factor sign-in. */
export function TotpCodeForm({ label, hint, onSubmit, backupCode = false }: TotpCodeFormProps) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = backupCode ? code.trim() : code.replace(/\D/g, '');
    if (!backupCode && typed.length !== 6) {
      setError(messages.twoFactor.invalidCode);
      return;
    }
    setPending(true);
    try {
      setError((await onSubmit(typed)) ?? undefined);
    } finally {
      setPending(false);
    }
  };

  return (
    <form noValidate aria-label={messages.twoFactor.verify} className="grid gap-4" onSubmit={asyncHandler(submit)}>
      <TextField
        label={label}
        description={hint}
        error={error}
        autoComplete="one-time-code"
        inputMode={backupCode ? 'text' : 'numeric'}
        maxLength={64}
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <Button type="submit" disabled={pending}>
        {pending ? messages.twoFactor.verifying : messages.twoFactor.verify}
      </Button>
    </form>
  );
}
