import { useState, type ReactNode } from 'react';
import { errorMessage } from '@/lib/error-message';
import { asyncHandler } from '@/lib/async-handler';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from './alert-dialog';
import { Button } from './button';
import { ErrorText } from './error-text';

type ConfirmActionDialogProps = {
  open: boolean;
  title: string;
  description: string;
  /** What the person should know before confirming (a new price), under the description. */
  children?: ReactNode;
  cancelLabel: string;
  confirmLabel: string;
  /** Runs the action; the dialog closes when it resolves. */
  onConfirm: () => Promise<void>;
  /** The refusal's words, shown in the dialog (default: the server's message). */
  refusalOf?: (message: string) => string;
  onClose: () => void;
};

/**
 * A destructive action asked once more ('Excluir', 'Remover'): the dialog stays open until the server has answered, and
 * a refusal is written in it, where the person is looking.
 */
export function ConfirmActionDialog({ open, title, description, children, cancelLabel, confirmLabel, onConfirm, refusalOf, onClose }: ConfirmActionDialogProps) {
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    setRefusal(null);
    onClose();
  };

  const confirm = async () => {
    setRefusal(null);
    setPending(true);
    try {
      await onConfirm();
      close();
    } catch (error) {
      console.warn(`Falha ao confirmar: ${title}`, error);
      const message = errorMessage(error);
      setRefusal(refusalOf ? refusalOf(message) : message);
    } finally {
      setPending(false);
    }
  };

  return (
    <AlertDialog open={open} onOpenChange={(isOpen) => (isOpen ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        {children}
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={pending}>{cancelLabel}</AlertDialogCancel>
          {/* A plain button: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={pending} onClick={asyncHandler(confirm)}>
            {confirmLabel}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
