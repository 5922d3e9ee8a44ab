import type { NetworkPlace } from '@carteirinha/shared/contracts/network';
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
import { useRemovePlace } from '../api/clinic-network';

const m = messages.network;

/** 'Excluir' a place, after a confirmation; a refusal stays in the dialog. */
export function DeletePlaceDialog({ place, onClose }: { place: NetworkPlace | null; onClose: () => void }) {
  const removePlace = useRemovePlace();
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    setRefusal(null);
    onClose();
  };

  const confirm = async () => {
    if (!place) return;
    setRefusal(null);
    try {
      await removePlace.mutateAsync(place.id);
      toast.success(m.deleted);
      close();
    } catch (error) {
      console.warn('Falha ao excluir o local da rede', error);
      setRefusal(formatMessage(m.deleteError, { message: errorMessage(error) }));
    }
  };

  return (
    <AlertDialog open={place !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{formatMessage(m.deleteTitle, { name: place?.name ?? '' })}</AlertDialogTitle>
          <AlertDialogDescription>{m.deleteDescription}</AlertDialogDescription>
        </AlertDialogHeader>
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={removePlace.isPending}>{messages.common.cancel}</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={removePlace.isPending} onClick={asyncHandler(confirm)}>
            {m.delete}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
