import { assignRoleSchema, type AdminUser } from '@carteirinha/shared/contracts/users';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS, ROLES, roleNeedsClinic } from '@carteirinha/shared/roles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect } from '@/components/ui/native-select';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/error-message';
import { useAssignRole, type AssignRoleResponse } from '../api/assign-role';
import { useUpdateRole } from '../api/update-role';

const m = messages.userRoles;

type FormInput = z.input<typeof assignRoleSchema>;
type FormOutput = z.output<typeof assignRoleSchema>;

export type ClinicOption = { id: string; name: string };

type UserRoleDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The user whose role is edited ('Editar Usuário'), or null to give a role to someone ('Novo Usuário'). */
  user: AdminUser | null;
  /** The clinics to choose from; undefined while they load. */
  clinics: readonly ClinicOption[] | undefined;
  clinicsError: string | null;
};

/** An empty control means "not given": the schema then answers with its own message instead of a format error. */
const emptyAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const emptyAsNull = (value: unknown) => (value === '' ? null : value);

/**
 * 'Novo Usuário' / 'Editar Usuário' (specification §2, §5, §8). Both validate with `assignRoleSchema`: a new role is
 * given to an e-mail (an existing account, or an invitation), an edit names the user by id, which cannot be changed.
 * A failed save keeps the dialog open with what was typed.
 */
export function UserRoleDialog({ open, onOpenChange, user, clinics, clinicsError }: UserRoleDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{user ? m.editUser : m.newUser}</DialogTitle>
          <DialogDescription>
            {user ? 'Altere a função e a clínica deste usuário.' : 'Dê uma função a um usuário da plataforma ou convide alguém por email.'}
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open (and once the clinics are known, so the select can show the current one): each
            opening starts from the user's current values. */}
        {clinicsError ? (
          <p role="alert" className="text-sm text-destructive">
            {clinicsError}
          </p>
        ) : clinics ? (
          <UserRoleForm user={user} clinics={clinics} onDone={() => onOpenChange(false)} onCancel={() => onOpenChange(false)} />
        ) : (
          <Spinner className="justify-self-center py-6" />
        )}
      </DialogContent>
    </Dialog>
  );
}

type UserRoleFormProps = {
  user: AdminUser | null;
  clinics: readonly ClinicOption[];
  onDone: () => void;
  onCancel: () => void;
};

function UserRoleForm({ user, clinics, onDone, onCancel }: UserRoleFormProps) {
  const assignRole = useAssignRole();
  const updateRole = useUpdateRole();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(assignRoleSchema),
    defaultValues: user
      ? { userId: user.id, role: user.role ?? undefined, clinicId: user.clinicId }
      : { email: undefined, role: undefined, clinicId: null },
  });

  const role = useWatch({ control, name: 'role' });
  // A Super Admin belongs to no clinic: the select is not shown and no clinic is sent.
  const showClinic = !role || roleNeedsClinic(role);

  async function save(values: FormOutput) {
    const clinicId = roleNeedsClinic(values.role) ? (values.clinicId ?? null) : null;
    // A 'Desativado' user has no role row to update: giving one back is an assignment.
    if (user && user.role !== null) {
      try {
        await updateRole.mutateAsync({ userId: user.id, input: { role: values.role, clinicId } });
      } catch (error) {
        reportFailure(m.updateError, error);
        return;
      }
      toast.success(m.updated);
      onDone();
      return;
    }
    let answer: AssignRoleResponse;
    try {
      answer = await assignRole.mutateAsync(user ? { userId: user.id, role: values.role, clinicId } : { email: values.email, role: values.role, clinicId });
    } catch (error) {
      reportFailure(m.assignError, error);
      return;
    }
    toast.success(m.assigned, answer.invited ? { description: m.invited } : undefined);
    onDone();
  }

  return (
    <form noValidate className="grid gap-4" onSubmit={handleSubmit(save)}>
      {user ? (
        <FormField label={m.emailLabel} description="O usuário não pode ser trocado; para outra pessoa, use Novo Usuário.">
          {(field) => <Input {...field} type="email" readOnly value={user.email} />}
        </FormField>
      ) : (
        <FormField label={m.emailLabel} description={m.emailHelp} error={errors.email?.message}>
          {(field) => (
            <Input
              {...field}
              type="email"
              autoComplete="off"
              placeholder="usuario@email.com"
              {...register('email', { setValueAs: emptyAsUndefined })}
            />
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
            <NativeSelect {...field} {...register('clinicId', { setValueAs: emptyAsNull })}>
              <option value="">{m.clinicPlaceholder}</option>
              {clinics.map((clinic) => (
                <option key={clinic.id} value={clinic.id}>
                  {clinic.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      ) : (
        <p className="text-sm text-muted-foreground">{m.clinicNotNeeded}</p>
      )}

      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

/** Specification §8: the server's message after the action's prefix; the dialog stays open for another try. */
function reportFailure(template: string, error: unknown) {
  console.warn('Falha ao salvar a função do usuário', error);
  toast.error(formatMessage(template, { message: errorMessage(error) }));
}
