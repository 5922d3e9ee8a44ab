import type { Service } from '@carteirinha/shared/contracts/services';
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
import { useRemoveService } from '../api/save-service';

const m = messages.services;

/**
 * 'Excluir' a service: the server deletes one no visit used and archives one that visits used (it leaves the price
 * table and stays in the visits' record); the toast says which. A refusal stays in the dialog.
 */
export function DeleteServiceDialog({ service, onClose }: { service: Service | null; onClose: () => void }) {
  const removeService = useRemoveService();
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    setRefusal(null);
    onClose();
  };

  const confirm = async () => {
    if (!service) return;
    setRefusal(null);
    try {
      const { outcome } = await removeService.mutateAsync(service.id);
      toast.success(outcome === 'archived' ? m.archivedToast : m.deleted);
      close();
    } catch (error) {
      console.warn('Falha ao excluir o serviço', error);
      setRefusal(formatMessage(m.deleteError, { message: errorMessage(error) }));
    }
  };

  return (
    <AlertDialog open={service !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{formatMessage(m.deleteTitle, { name: service?.name ?? '' })}</AlertDialogTitle>
          <AlertDialogDescription>{m.deleteDescription}</AlertDialogDescription>
        </AlertDialogHeader>
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={removeService.isPending}>{messages.common.cancel}</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={removeService.isPending} onClick={asyncHandler(confirm)}>
            {m.delete}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
