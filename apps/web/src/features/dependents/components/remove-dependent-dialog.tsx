import type { Dependent, DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { ErrorText } from '@/components/ui/error-text';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useRemoveDependent } from '../api/dependents';
import { priceChangeText } from '../lib/price-change';

const m = messages.dependents;

/** 'Remover': the card stops at once and the new price is said before the patient confirms. */
export function RemoveDependentDialog({ dependent, overview, onClose }: { dependent: Dependent | null; overview: DependentsOverview; onClose: () => void }) {
  const removeDependent = useRemoveDependent();
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const confirm = async () => {
    if (!dependent) return;
    setRefusal(null);
    try {
      await removeDependent.mutateAsync(dependent.id);
      toast.success(m.removed);
      close();
    } catch (error) {
      console.warn('Falha ao remover o dependente', error);
      setRefusal(errorMessage(error));
    }
  };
  const name = dependent?.fullName ?? '';
  return (
    <AlertDialog open={dependent !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{formatMessage(m.removeTitle, { name })}</AlertDialogTitle>
          <AlertDialogDescription>{formatMessage(m.removeBody, { name })}</AlertDialogDescription>
        </AlertDialogHeader>
        <p className="text-sm" data-testid="dependent-price-change">
          {priceChangeText(overview, 'remove')}
        </p>
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={removeDependent.isPending}>{m.cancel}</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={removeDependent.isPending} onClick={asyncHandler(confirm)}>
            {m.confirmRemove}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
