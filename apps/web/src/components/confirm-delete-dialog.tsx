import { formatMessage, messages } from '@carteirinha/shared/messages';
import { toast } from 'sonner';
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
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';

type ConfirmDeleteDialogProps<Item extends { name: string }> = {
  /** What to delete; null keeps the dialog closed. */
  item: Item | null;
  /** How the question names it, with its article: 'a clínica', 'o plano'. */
  subject: string;
  /** Deletes it on the server. */
  onConfirm: (item: Item) => Promise<unknown>;
  /** The deletion is on its way. */
  pending: boolean;
  /** The toast after the deletion, such as 'Plano excluído com sucesso!'. */
  successMessage: string;
  /** The toast after a failure, with `{message}` for the server's reason (specification §8). */
  errorTemplate: string;
  onClose: () => void;
};

/**
 * 'Confirmar Exclusão' (specification §2): asks whether to delete the named item and says that it cannot be undone.
 * The dialog stays open until the server has answered, then closes either way; a refusal (a clinic with patients, a
 * plan in use: 409) is told in the error toast and the item stays.
 */
export function ConfirmDeleteDialog<Item extends { name: string }>({
  item,
  subject,
  onConfirm,
  pending,
  successMessage,
  errorTemplate,
  onClose,
}: ConfirmDeleteDialogProps<Item>) {
  const confirm = async () => {
    if (!item) return;
    try {
      await onConfirm(item);
      toast.success(successMessage);
    } catch (error) {
      console.warn(`Falha ao excluir ${subject}`, error);
      toast.error(formatMessage(errorTemplate, { message: errorMessage(error) }));
    }
    onClose();
  };

  return (
    <AlertDialog open={item !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{messages.common.confirmDeleteTitle}</AlertDialogTitle>
          <AlertDialogDescription>
            Tem certeza que deseja excluir {subject} <strong className="font-semibold text-foreground">{item?.name}</strong>? Esta ação não pode ser
            desfeita.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{messages.common.cancel}</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={pending} onClick={asyncHandler(confirm)}>
            {messages.common.delete}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
