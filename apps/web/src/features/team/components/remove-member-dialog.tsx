import type { TeamMember } from '@carteirinha/shared/contracts/users';
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
import { useRemoveMember } from '../api/team';

const t = messages.team;

/** The words of the confirmation: removing someone's access, or cancelling an invitation nobody accepted yet. */
function wordsFor(member: TeamMember) {
  if (member.status === 'invited') {
    return {
      title: formatMessage(t.cancelInvitationTitle, { email: member.email }),
      description: t.cancelInvitationDescription,
      confirm: t.cancelInvitation,
      done: t.invitationCanceled,
      error: t.cancelInvitationError,
    };
  }
  return { title: formatMessage(t.removeTitle, { name: member.fullName || member.email }), description: t.removeDescription, confirm: t.remove, done: t.removed, error: t.removeError };
}

/**
 * 'Remover acesso' (the person's sessions end at once) or 'Cancelar convite' (the link stops working). The dialog stays
 * open until the server answers, and its refusal — the clinic's last administrator — is shown in it.
 */
export function RemoveMemberDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  const removeMember = useRemoveMember();
  const [refusal, setRefusal] = useState<string | null>(null);
  const words = member ? wordsFor(member) : null;

  const close = () => {
    setRefusal(null);
    onClose();
  };

  const confirm = async () => {
    if (!member || !words) return;
    setRefusal(null);
    try {
      await removeMember.mutateAsync(member.userId);
      toast.success(words.done);
      close();
    } catch (error) {
      console.warn('Falha ao remover da equipe', error);
      setRefusal(formatMessage(words.error, { message: errorMessage(error) }));
    }
  };

  return (
    <AlertDialog open={member !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{words?.title}</AlertDialogTitle>
          <AlertDialogDescription>{words?.description}</AlertDialogDescription>
        </AlertDialogHeader>
        {member ? <p className="text-sm font-medium break-words">{member.email}</p> : null}
        {refusal ? <ErrorText>{refusal}</ErrorText> : null}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={removeMember.isPending}>{messages.common.cancel}</AlertDialogCancel>
          <Button variant="destructive" disabled={removeMember.isPending} onClick={asyncHandler(confirm)}>
            {words?.confirm}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
