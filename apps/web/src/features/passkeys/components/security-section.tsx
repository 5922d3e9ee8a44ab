import { PASSKEY_NAME_MAX_LENGTH, passkeyNameSchema, type Passkey } from '@carteirinha/shared/contracts/passkeys';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { KeyRoundIcon, Trash2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from '@/lib/toasts';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { useAddPasskey } from '../api/add-passkey';
import { usePasskeys } from '../api/list-passkeys';
import { useRemovePasskey } from '../api/remove-passkey';
import { PasskeyError } from '../lib/webauthn';

const t = messages.passkeys;

/** A guess at the device for the name field: the person edits it; it only helps tell the keys apart later. */
function defaultDeviceName(): string {
  const agent = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  if (/iPhone|Android.+Mobile/.test(agent)) return 'Celular';
  if (/iPad|Android/.test(agent)) return 'Tablet';
  return 'Computador';
}

function failureMessage(error: unknown): string {
  if (error instanceof PasskeyError || error instanceof ApiError) return error.message;
  return messages.errors.INTERNAL;
}

function AddPasskeyForm() {
  const [name, setName] = useState(defaultDeviceName);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddPasskey();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? t.nameRequired);
      return;
    }
    setProblem(null);
    try {
      await add.mutateAsync(parsed.data);
      toast.success(t.added);
    } catch (error) {
      setProblem(failureMessage(error));
    }
  };

  return (
    <form noValidate aria-label={t.add} className="grid gap-3" onSubmit={asyncHandler(onSubmit)}>
      <TextField label={t.nameLabel} description={t.nameHint} maxLength={PASSKEY_NAME_MAX_LENGTH} value={name} onChange={(event) => setName(event.target.value)} />
      <div aria-live="polite">
        {problem ? (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        ) : null}
      </div>
      <Button type="submit" className="justify-self-start" disabled={add.isPending}>
        <KeyRoundIcon aria-hidden="true" />
        {add.isPending ? t.adding : t.add}
      </Button>
    </form>
  );
}

function RemovePasskeyButton({ passkey }: { passkey: Passkey }) {
  const remove = useRemovePasskey();
  const onConfirm = async () => {
    try {
      await remove.mutateAsync(passkey.id);
      toast.success(t.removed);
    } catch (error) {
      toast.error(t.removeErrorTitle, { description: failureMessage(error) });
    }
  };
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" size="sm" aria-label={`${t.remove} ${passkey.name}`}>
          <Trash2Icon aria-hidden="true" />
          {t.remove}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{t.removeTitle}</AlertDialogTitle>
          <AlertDialogDescription>{formatMessage(t.removeDescription, { name: passkey.name })}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t.cancel}</AlertDialogCancel>
          <AlertDialogAction onClick={asyncHandler(onConfirm)}>{t.removeConfirm}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** One passkey as a card line: every value and the action visible on a 390 px phone, no sideways scroll. */
function PasskeyItem({ passkey }: { passkey: Passkey }) {
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 rounded-lg border p-3">
      <div className="grid min-w-0 gap-1">
        <p className="font-medium break-words">{passkey.name}</p>
        <p className="text-sm text-muted-foreground">{passkey.deviceType === 'multiDevice' ? t.synced : t.deviceBound}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm text-muted-foreground">
          <dt>{t.site}:</dt>
          <dd className="break-all">{passkey.rpId}</dd>
          <dt>{t.createdAt}:</dt>
          <dd>{formatDateTime(passkey.createdAt)}</dd>
          <dt>{t.lastUsedAt}:</dt>
          <dd>{passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : t.neverUsed}</dd>
        </dl>
      </div>
      <RemovePasskeyButton passkey={passkey} />
    </li>
  );
}

/** Segurança: the user's passkeys, to add and remove, the same in every portal (ADR 029). */
export function SecuritySection() {
  const passkeys = usePasskeys();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>{t.listTitle}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6">
        {passkeys.isPending ? <Spinner /> : null}
        {passkeys.isError ? <ErrorState error={passkeys.error} onRetry={() => void passkeys.refetch()} /> : null}
        {passkeys.data?.length === 0 ? <p className="text-sm text-muted-foreground">{t.empty}</p> : null}
        {passkeys.data && passkeys.data.length > 0 ? (
          <ul className="grid gap-3" aria-label={t.listTitle}>
            {passkeys.data.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} />
            ))}
          </ul>
        ) : null}
        <AddPasskeyForm />
      </CardContent>
    </Card>
  );
}
