import { onboardingClinicSchema } from '@carteirinha/shared/contracts/tenant';
import { formatCnpj } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, useWatch, type UseFormSetError } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { meQueryOptions } from '@/app/session';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api';
import { errorMessage } from '@/lib/error-message';
import { useCreateClinic, type CreateClinicInput } from '../api/create-clinic';
import { suggestSlug } from '../lib/suggest-slug';

type CreateClinicFormValues = z.input<typeof onboardingClinicSchema>;

/** Shown in the address preview before anything is typed. */
const SLUG_PLACEHOLDER = 'sua-clinica';

/**
 * The server's answer as the user reads it: a taken address or CNPJ also marks its field, so the message sits where
 * the fix is. Returns the text for the toast.
 */
function reportCreateError(error: unknown, setError: UseFormSetError<CreateClinicFormValues>): string {
  const message = errorMessage(error);
  if (message === messages.tenancy.slugTaken) setError('slug', { message }, { shouldFocus: true });
  if (message === messages.tenancy.cnpjTaken) setError('cnpj', { message }, { shouldFocus: true });
  return message;
}

type CreateClinicFormProps = {
  /** The address a clinic with this slug will have, for the live preview under "Endereço". */
  siteUrlOf: (slug: string) => string;
};

/**
 * "Criar minha clínica" (issue: sign-up by host): name, CNPJ and address, validated with the server's own schema.
 * The address follows the name until the user edits it. On success the user is the new clinic's admin, in a trial.
 */
export function CreateClinicForm({ siteUrlOf }: CreateClinicFormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const createClinic = useCreateClinic();
  // Whether the user typed an address of their own; from then on the name no longer suggests one.
  const [slugEditedByUser, setSlugEditedByUser] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    getValues,
    setError,
    control,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({ resolver: zodResolver(onboardingClinicSchema), defaultValues: { name: '', cnpj: '', slug: '' } });
  const slug = useWatch({ control, name: 'slug' });
  const preview = siteUrlOf(slug.trim().toLowerCase() || SLUG_PLACEHOLDER);

  const nameField = register('name', {
    onChange: () => {
      if (!slugEditedByUser) setValue('slug', suggestSlug(getValues('name')), { shouldValidate: isSubmitted });
    },
  });
  const cnpjField = register('cnpj', {
    onBlur: () => setValue('cnpj', formatCnpj(getValues('cnpj')), { shouldValidate: isSubmitted }),
  });
  const slugField = register('slug', {
    // Clearing the address hands it back to the suggestion.
    onChange: () => {
      setSlugEditedByUser(getValues('slug') !== '');
    },
  });

  const onValid = async (values: CreateClinicInput) => {
    try {
      await createClinic.mutateAsync(values);
    } catch (error) {
      toast.error(messages.tenancy.createClinicErrorTitle, { description: reportCreateError(error, setError) });
      // "Sua conta já está ligada a uma clínica": the fresh ['me'] sends the user on to their portal.
      if (error instanceof ApiError && error.message === messages.tenancy.alreadyOnboarded) {
        await queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey });
      }
      return;
    }
    toast.success(messages.tenancy.clinicCreatedTitle, { description: messages.tenancy.clinicCreated });
    await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 }).catch(() => null);
    await navigate('/clinica', { replace: true });
  };

  return (
    <form noValidate aria-label={messages.tenancy.createClinicTab} className="grid gap-4" onSubmit={handleSubmit(onValid)}>
      <TextField label="Nome da clínica" autoComplete="organization" placeholder="Clínica Vida & Saúde" error={errors.name?.message} {...nameField} />
      <TextField label="CNPJ" placeholder="00.000.000/0000-00" autoComplete="off" error={errors.cnpj?.message} {...cnpjField} />
      <TextField
        label="Endereço"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={SLUG_PLACEHOLDER}
        description={<span data-testid="site-preview">{formatMessage(messages.tenancy.clinicAddressPreview, { url: preview })}</span>}
        error={errors.slug?.message}
        {...slugField}
      />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? messages.tenancy.creatingClinic : messages.tenancy.createClinicAction}
      </Button>
    </form>
  );
}
