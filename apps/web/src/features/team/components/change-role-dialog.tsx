import { TEAM_ROLES, teamRoleChangeSchema, type TeamMember, type TeamRoleChange } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useChangeMemberRole } from '../api/team';
import { RoleChoice } from './role-choice';

const t = messages.team;

function ChangeRoleForm({ member, onDone }: { member: TeamMember; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<TeamRoleChange>({ resolver: zodResolver(teamRoleChangeSchema), defaultValues: { role: member.role } });
  const changeRole = useChangeMemberRole();
  // The server's refusal (the clinic's last administrator) is told here, where the change was asked.
  const [refusal, setRefusal] = useState<string | null>(null);

  const onValid = async ({ role }: TeamRoleChange) => {
    setRefusal(null);
    if (role === member.role) {
      onDone();
      return;
    }
    try {
      await changeRole.mutateAsync({ userId: member.userId, role });
      toast.success(t.roleChanged);
      onDone();
    } catch (error) {
      console.warn('Falha ao alterar a função', error);
      setRefusal(formatMessage(t.roleChangeError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <RoleChoice roles={TEAM_ROLES} error={errors.role?.message} register={register('role')} />
      {refusal ? <ErrorText>{refusal}</ErrorText> : null}
      <FormDialogFooter pending={isSubmitting} onCancel={onDone} />
    </form>
  );
}

/** 'Alterar função' of a member: Admin de Clínica ↔ Atendente. */
export function ChangeRoleDialog({ member, onClose }: { member: TeamMember | null; onClose: () => void }) {
  return (
    <Dialog open={member !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{formatMessage(t.changeRoleTitle, { name: member?.fullName || member?.email || '' })}</DialogTitle>
          <DialogDescription>{t.changeRoleDescription}</DialogDescription>
        </DialogHeader>
        {member ? <ChangeRoleForm key={member.userId} member={member} onDone={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
