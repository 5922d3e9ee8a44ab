import type { AdminUser } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useRemoveRole } from '../api/remove-role';

const m = messages.userRoles;

type RemoveRoleDialogProps = {
  /** The user to deactivate; null keeps the dialog closed. */
  user: AdminUser | null;
  onClose: () => void;
};

/**
 * 'Desativar' (specification §2): removes the user's role, closes the account (no more sign-ins) and ends its
 * sessions; the account itself stays, so 'Novo Usuário' can give a role back later. The dialog closes once the server
 * has done it.
 */
export function RemoveRoleDialog({ user, onClose }: RemoveRoleDialogProps) {
  const removeRole = useRemoveRole();

  function confirm() {
    if (!user) return;
    removeRole.mutate(user.id, {
      onSuccess: () => {
        toast.success(m.removed);
        onClose();
      },
      onError: (error) => {
        console.warn('Falha ao remover a função do usuário', error);
        toast.error(formatMessage(m.removeError, { message: errorMessage(error) }));
      },
    });
  }

  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{m.removeTitle}</AlertDialogTitle>
          <AlertDialogDescription>{m.removeDescription}</AlertDialogDescription>
        </AlertDialogHeader>
        {user ? <p className="text-sm font-medium break-words">{user.email}</p> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={removeRole.isPending}>{messages.common.cancel}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            disabled={removeRole.isPending}
            onClick={(event) => {
              // Radix would close the dialog at once; it closes when the server has answered instead.
              event.preventDefault();
              confirm();
            }}
          >
            {m.deactivate}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
