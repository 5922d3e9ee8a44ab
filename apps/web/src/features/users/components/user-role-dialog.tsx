import { assignRoleFormSchema, type AdminUser, type AssignRoleFormInput, type AssignRoleOutput } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS, ROLES, roleNeedsClinic } from '@carteirinha/shared/roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useAssignRole, type AssignRoleResponse } from '../api/assign-role';
import { useUpdateRole } from '../api/update-role';
import { ClinicPicker, type ChosenClinic } from './clinic-picker';

const m = messages.userRoles;
const u = messages.adminUsers;

type UserRoleDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The user whose role is edited ('Editar Usuário'), or null to give a role to someone ('Novo Usuário'). */
  user: AdminUser | null;
};

/** An empty select means "not chosen": the schema then answers with its own message instead of a format error. */
const emptyAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/**
 * 'Novo Usuário' / 'Editar Usuário' (specification §2, §5, §8). Both validate with the contract's form schema, which
 * checks what the API will receive: a new role is given to "e-mail ou ID do usuário" (an existing account, or an
 * invitation), an edit names the user by id, which cannot be changed. A failed save keeps the dialog open.
 */
export function UserRoleDialog({ open, onOpenChange, user }: UserRoleDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{user ? m.editUser : m.newUser}</DialogTitle>
          <DialogDescription>{user ? u.editUserDescription : u.newUserDescription}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: each opening starts from the user's current values. */}
        {open ? <UserRoleForm user={user} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** An edit names the user by id (shown by e-mail, not editable); a 'Desativado' user has no role to start from. */
function initialValues(user: AdminUser | null): DefaultValues<AssignRoleFormInput> {
  if (!user) return { user: '', role: undefined, clinicId: null };
  return { user: user.id, role: user.role ?? undefined, clinicId: user.clinicId };
}

function UserRoleForm({ user, onDone }: { user: AdminUser | null; onDone: () => void }) {
  const assignRole = useAssignRole();
  const updateRole = useUpdateRole();
  const [clinic, setClinic] = useState<ChosenClinic | null>(user?.clinicId && user.clinicName ? { id: user.clinicId, name: user.clinicName } : null);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<AssignRoleFormInput, unknown, AssignRoleOutput>({
    resolver: zodResolver(assignRoleFormSchema),
    defaultValues: initialValues(user),
  });

  const role = useWatch({ control, name: 'role' });
  // A Super Admin belongs to no clinic: the picker is not shown and no clinic is sent.
  const showClinic = !role || roleNeedsClinic(role);

  async function save(values: AssignRoleOutput) {
    const clinicId = roleNeedsClinic(values.role) ? (values.clinicId ?? null) : null;
    // A 'Desativado' user has no role row to update: giving one back is an assignment (which re-opens the account).
    if (user && user.role !== null) {
      let updated: AdminUser;
      try {
        updated = await updateRole.mutateAsync({ userId: user.id, input: { role: values.role, clinicId } });
      } catch (error) {
        reportFailure(m.updateError, error);
        return;
      }
      // A patient who never confirmed the e-mail is raised only through an invitation (ADR 006).
      const reclaimed = updated.invitationPending && !user.invitationPending;
      toast.success(m.updated, reclaimed ? { description: u.unverifiedAccountInvited } : undefined);
      onDone();
      return;
    }
    let answer: AssignRoleResponse;
    try {
      answer = await assignRole.mutateAsync({ ...values, clinicId });
    } catch (error) {
      reportFailure(m.assignError, error);
      return;
    }
    toast.success(m.assigned, { description: assignedDescription(answer) });
    onDone();
  }

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(save))}>
      {user ? (
        <FormField label={m.emailLabel} description={u.userLocked}>
          {(field) => <Input {...field} type="email" readOnly value={user.email} />}
        </FormField>
      ) : (
        <FormField label={u.userReferenceLabel} description={u.userReferenceHelp} error={errors.user?.message}>
          {(field) => (
            <Input {...field} type="text" inputMode="email" autoComplete="off" spellCheck={false} placeholder={u.userReferencePlaceholder} {...register('user')} />
          )}
        </FormField>
      )}

      <FormField label={m.roleLabel} error={errors.role?.message}>
        {(field) => (
          <NativeSelect {...field} {...register('role', { setValueAs: emptyAsUndefined })}>
            <option value="">{m.rolePlaceholder}</option>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {ROLE_LABELS[value]}
              </option>
            ))}
          </NativeSelect>
        )}
      </FormField>

      {showClinic ? (
        <FormField label={m.clinicLabel} error={errors.clinicId?.message}>
          {(field) => (
            <Controller
              control={control}
              name="clinicId"
              render={({ field: clinicField }) => (
                <ClinicPicker
                  {...field}
                  value={clinic}
                  onBlur={clinicField.onBlur}
                  onChange={(chosen) => {
                    setClinic(chosen);
                    clinicField.onChange(chosen?.id ?? null);
                  }}
                />
              )}
            />
          )}
        </FormField>
      ) : (
        <p className="text-sm text-muted-foreground">{m.clinicNotNeeded}</p>
      )}

      <FormDialogFooter pending={isSubmitting} onCancel={onDone} />
    </form>
  );
}

/** What happened besides the role: an invitation, or an unconfirmed account's invitation (ADR 006). */
function assignedDescription(answer: AssignRoleResponse): string | undefined {
  if (answer.unverifiedAccount) return u.unverifiedAccountInvited;
  return answer.invited ? m.invited : undefined;
}

/** Specification §8: the server's message after the action's prefix; the dialog stays open for another try. */
function reportFailure(template: string, error: unknown) {
  console.warn('Falha ao salvar a função do usuário', error);
  toast.error(formatMessage(template, { message: errorMessage(error) }));
}
