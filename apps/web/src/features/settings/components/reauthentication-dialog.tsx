import { messages } from '@carteirinha/shared/messages';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';

const s = messages.settings;

type ReauthenticationDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Saves again with the password; answers the message to show under the field, or null when it was saved. */
  onConfirm: (password: string) => Promise<string | null>;
};

/** Asks the admin's password before saving a change that weakens security or moves e-mail (the server insists). */
export function ReauthenticationDialog({ open, onOpenChange, onConfirm }: ReauthenticationDialogProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);

  const close = (next: boolean) => {
    if (!next) {
      setPassword('');
      setError(undefined);
    }
    onOpenChange(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      const problem = await onConfirm(password);
      if (problem) setError(problem);
      else close(false);
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{s.reauthTitle}</DialogTitle>
          <DialogDescription>{s.reauthDescription}</DialogDescription>
        </DialogHeader>
        <form noValidate className="grid gap-4" onSubmit={asyncHandler(submit)}>
          <TextField
            label={s.reauthPassword}
            type="password"
            autoComplete="current-password"
            error={error}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <FormDialogFooter pending={pending} onCancel={() => close(false)} />
        </form>
      </DialogContent>
    </Dialog>
  );
}
