import { patientProfileFormSchema, type PatientProfile, type PatientProfileFormInput, type PatientProfileFormValues } from '@carteirinha/shared/contracts/profiles';
import { formatCpf } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/section-card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MaskedField } from '@/components/ui/masked-field';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextField } from '@/components/ui/text-field';
import { UnsavedChangesGuard } from '@/components/ui/unsaved-changes-guard';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { askEmailChange, useUpdateMyProfile } from '../api/update-my-profile';
import { profileFormValuesOf } from '../lib/profile-form';

const p = messages.patientProfile;

/**
 * 'Dados pessoais': saved together by 'Salvar Alterações' and read back from the server's answer; 'Cancelar' puts back
 * what is saved. The CPF is read-only once set. A new e-mail is not saved here: a link goes to it, and the notice of
 * that stays beside the field, where the patient looks.
 */
export function ProfileForm({ profile }: { profile: PatientProfile }) {
  const save = useUpdateMyProfile();
  const cpfId = useId();
  const [emailNotice, setEmailNotice] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<PatientProfileFormInput, unknown, PatientProfileFormValues>({ resolver: zodResolver(patientProfileFormSchema), defaultValues: profileFormValuesOf(profile) });

  const onValid = async ({ email, ...changes }: PatientProfileFormValues) => {
    setFailure(null);
    try {
      const saved = await save.mutateAsync(changes);
      if (email !== saved.email) {
        await askEmailChange(email);
        setEmailNotice(formatMessage(p.emailPending, { email }));
      }
      reset(profileFormValuesOf(saved));
      toast.success(p.updated);
    } catch (error) {
      console.warn('Falha ao salvar o perfil', error);
      const message = errorMessage(error);
      setFailure(message);
      toast.error(p.uploadError, { description: message });
    }
  };

  const onCancel = () => {
    reset(profileFormValuesOf(profile));
    setFailure(null);
    toast.info(p.canceled);
  };

  return (
    <SectionCard id="profile-data-title" title={p.personalTitle} className="block">
        <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="grid gap-4" data-testid="profile-form">
          <UnsavedChangesGuard when={isDirty && !isSubmitting} />
          <TextField label={p.fullName} autoComplete="name" error={errors.fullName?.message} {...register('fullName')} />
          <div className="grid gap-4 sm:grid-cols-2">
            {profile.cpf ? (
              <div className="grid gap-1.5">
                <Label htmlFor={cpfId}>{p.cpf}</Label>
                <Input id={cpfId} value={formatCpf(profile.cpf)} readOnly aria-describedby={`${cpfId}-note`} className="bg-muted" />
                <p id={`${cpfId}-note`} className="text-sm text-muted-foreground">
                  {p.cpfReadOnly}
                </p>
              </div>
            ) : (
              <MaskedField control={control} name="cpf" kind="cpf" label={p.cpf} error={errors.cpf?.message} />
            )}
            <TextField
              type="email"
              label={p.email}
              autoComplete="email"
              error={errors.email?.message}
              description={emailNotice ? <span role="status">{emailNotice}</span> : undefined}
              {...register('email')}
            />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            <MaskedField control={control} name="phone" kind="phone" label={p.phone} error={errors.phone?.message} />
            <TextField type="date" label={p.birthDate} autoComplete="bday" error={errors.birthDate?.message} {...register('birthDate')} />
          </div>
          {failure ? (
            <p role="alert" className="text-sm text-destructive">
              {failure}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={onCancel} disabled={isSubmitting}>
              {p.cancel}
            </Button>
            <SubmitButton pending={isSubmitting} pendingLabel={p.saving}>
              {p.save}
            </SubmitButton>
          </div>
        </form>
    </SectionCard>
  );
}
