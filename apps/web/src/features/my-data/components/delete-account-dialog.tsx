import { DELETION_CONFIRMATION } from '@carteirinha/shared/contracts/my-data';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { meQueryOptions } from '@/app/session';
import { errorMessage } from '@/lib/error-message';
import { useDeleteMyAccount } from '../api/my-data';

const m = messages.myData;

function Listed({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <div className="grid gap-1">
      <h3 className="font-medium">{title}</h3>
      <ul className="list-disc space-y-1 pl-5">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

type DeleteAccountDialogProps = { open: boolean; onClose: () => void };

/**
 * 'Solicitar exclusão' (ADR 027): what is deleted, what is kept and why, before the patient types the word that
 * confirms it. On success the session is gone on the server; the cached answers go too, and the patient lands on the
 * page that says what was kept.
 */
export function DeleteAccountDialog({ open, onClose }: DeleteAccountDialogProps) {
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteMyAccount();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const confirm = async () => {
    if (typed.trim().toUpperCase() !== DELETION_CONFIRMATION) {
      setError(m.confirmationMismatch);
      return;
    }
    setError(null);
    try {
      const outcome = await remove.mutateAsync();
      // Away from the portal first: its guard would otherwise see nobody signed in and send the patient to /auth.
      await navigate('/conta-excluida', { replace: true, state: outcome });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryOptions.queryKey[0] });
      queryClient.setQueryData(meQueryOptions.queryKey, null);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="max-h-[90svh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>{m.dialogTitle}</DialogTitle>
          <DialogDescription>{m.deleteHelp}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-4 text-sm" data-testid="deletion-terms">
          <Listed title={m.deletedListTitle} items={m.deletedList} />
          <Listed title={m.keptListTitle} items={m.keptList} />
          <p>{m.subscriptionNote}</p>
          <p>{m.cardsNote}</p>
          <div className="grid gap-2">
            <Label htmlFor={inputId}>{formatMessage(m.confirmLabel, { word: DELETION_CONFIRMATION })}</Label>
            <Input id={inputId} value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} aria-invalid={error ? true : undefined} />
            {error ? <ErrorText>{error}</ErrorText> : null}
          </div>
        </div>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onClose}>
            {m.cancel}
          </Button>
          <Button type="button" variant="destructive" disabled={remove.isPending} onClick={() => void confirm()}>
            {remove.isPending ? m.deleting : m.confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
