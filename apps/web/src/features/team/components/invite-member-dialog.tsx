import { TEAM_ROLES, teamInvitationSchema, type TeamInvitation } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useInviteMember } from '../api/team';
import { RoleChoice } from './role-choice';

const t = messages.team;

type InviteFields = { email: string; role: TeamInvitation['role'] };

function InviteForm({ onDone }: { onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<InviteFields, unknown, TeamInvitation>({ resolver: zodResolver(teamInvitationSchema), defaultValues: { email: '', role: 'clinic_staff' } });
  const invite = useInviteMember();
  const [refusal, setRefusal] = useState<string | null>(null);

  const onValid = async (input: TeamInvitation) => {
    setRefusal(null);
    try {
      await invite.mutateAsync(input);
      toast.success(formatMessage(t.invited, { email: input.email }));
      onDone();
    } catch (error) {
      console.warn('Falha ao convidar para a equipe', error);
      setRefusal(formatMessage(t.inviteError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" aria-label={t.inviteTitle} onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label={t.emailLabel} type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <RoleChoice roles={TEAM_ROLES} error={errors.role?.message} register={register('role')} />
      {refusal ? <ErrorText>{refusal}</ErrorText> : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {messages.common.cancel}
        </Button>
        <SubmitButton pending={isSubmitting} pendingLabel={messages.common.saving}>
          {t.send}
        </SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** 'Convidar': an e-mail as Admin de Clínica or Atendente of this clinic. */
export function InviteMemberDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{t.inviteTitle}</DialogTitle>
          <DialogDescription>{t.inviteDescription}</DialogDescription>
        </DialogHeader>
        {open ? <InviteForm onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
