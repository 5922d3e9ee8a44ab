import type { PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { onboardingClinicSchema } from '@carteirinha/shared/contracts/tenant';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch, type Control, type UseFormSetError } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { z } from 'zod';
import { meQueryOptions } from '@/app/session';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { MaskedField } from '@/components/ui/masked-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { usePublicPlans } from '@/features/landing/api/get-public-plans';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { acrossPageChange } from '@/lib/toasts';
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

/**
 * The plans a clinic may start on by itself (ADR 010): active, with a list price ("sob consulta" is sold by talking
 * to the platform), cheapest first — the server's own default when none is chosen.
 */
function selfServicePlans(plans: PublicPlatformPlan[]): PublicPlatformPlan[] {
  return plans.filter((plan) => plan.priceCents !== null).sort((a, b) => (a.priceCents ?? 0) - (b.priceCents ?? 0));
}

/** The plan to show as chosen: the one asked for when it is on offer, else the cheapest (what the server would take). */
function chosenPlanId(plans: PublicPlatformPlan[], wanted: string | undefined): string | undefined {
  return plans.find((plan) => plan.id === wanted)?.id ?? plans[0]?.id;
}

/** 'Plano': the self-service plans from the public plans endpoint, the landing page's choice preselected. */
function PlanSelect({ control, plans, error }: { control: Control<CreateClinicFormValues>; plans: PublicPlatformPlan[] | undefined; error?: string }) {
  return (
    <Controller
      control={control}
      name="planId"
      render={({ field }) => (
        <FormField label={messages.tenancy.planLabel} description={messages.tenancy.planHint} error={error}>
          {(fieldControl) => (
            <NativeSelect
              {...fieldControl}
              name={field.name}
              ref={field.ref}
              onBlur={field.onBlur}
              disabled={!plans}
              value={plans ? (chosenPlanId(plans, field.value) ?? '') : ''}
              onChange={(event) => field.onChange(event.target.value)}
            >
              {plans ? (
                plans.map((plan) => (
                  <option key={plan.id} value={plan.id}>
                    {formatMessage(messages.tenancy.planOption, { name: plan.name, price: formatMoney(plan.priceCents ?? 0) })}
                  </option>
                ))
              ) : (
                <option value="">{messages.tenancy.plansLoading}</option>
              )}
            </NativeSelect>
          )}
        </FormField>
      )}
    />
  );
}

type CreateClinicFormProps = {
  /** The address a clinic with this slug will have, for the live preview under the site's address. */
  siteUrlOf: (slug: string) => string;
  /** The plan picked on the landing page's pricing card (`?plano=`), preselected when it is on offer. */
  initialPlanId?: string;
};

/**
 * "Criar minha clínica" (issue: sign-up by host): name, CNPJ, the site's address and the plan, validated with the
 * server's own schema. The address follows the name until the user edits it. On success the user is the new clinic's
 * admin, in a trial awaiting the platform's approval (ADR 010), and is told so.
 */
export function CreateClinicForm({ siteUrlOf, initialPlanId }: CreateClinicFormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const createClinic = useCreateClinic();
  const { data: publicPlans } = usePublicPlans();
  const plans = publicPlans ? selfServicePlans(publicPlans) : undefined;
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
  } = useForm({ resolver: zodResolver(onboardingClinicSchema), defaultValues: { name: '', cnpj: '', slug: '', planId: initialPlanId } });
  const slug = useWatch({ control, name: 'slug' });
  const preview = siteUrlOf(slug.trim().toLowerCase() || SLUG_PLACEHOLDER);

  const nameField = register('name', {
    onChange: () => {
      if (!slugEditedByUser) setValue('slug', suggestSlug(getValues('name')), { shouldValidate: isSubmitted });
    },
  });
  const slugField = register('slug', {
    // Clearing the address hands it back to the suggestion.
    onChange: () => {
      setSlugEditedByUser(getValues('slug') !== '');
    },
  });

  const onValid = async (values: CreateClinicInput) => {
    try {
      // What the select shows is what is sent; until the plans load, the server's default (the cheapest).
      await createClinic.mutateAsync({ ...values, planId: plans ? chosenPlanId(plans, values.planId) : undefined });
    } catch (error) {
      toast.error(messages.tenancy.createClinicErrorTitle, { description: reportCreateError(error, setError) });
      // "Sua conta já está ligada a uma clínica": the fresh ['me'] sends the user on to their portal.
      if (error instanceof ApiError && error.message === messages.tenancy.alreadyOnboarded) {
        await queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey });
      }
      return;
    }
    // Kept across the page change: the owner reads it on the portal, beside its "aguardando aprovação" banner.
    toast.success(messages.tenancy.clinicCreatedTitle, {
      id: acrossPageChange('clinic-created'),
      description: messages.tenancy.clinicCreatedAwaitingApproval,
      duration: 10_000,
    });
    await queryClient.fetchQuery({ ...meQueryOptions, staleTime: 0 }).catch(() => null);
    await navigate('/clinica', { replace: true });
  };

  return (
    <form noValidate aria-label={messages.tenancy.createClinicTab} className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label="Nome da clínica" autoComplete="organization" placeholder="Clínica Vida & Saúde" error={errors.name?.message} {...nameField} />
      <MaskedField control={control} name="cnpj" kind="cnpj" label="CNPJ" error={errors.cnpj?.message} />
      <TextField
        label={messages.tenancy.siteAddressLabel}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        placeholder={SLUG_PLACEHOLDER}
        description={<span data-testid="site-preview">{formatMessage(messages.tenancy.clinicAddressPreview, { url: preview })}</span>}
        error={errors.slug?.message}
        {...slugField}
      />
      <PlanSelect control={control} plans={plans} error={errors.planId?.message} />
      <Button type="submit" className="w-full" disabled={isSubmitting}>
        {isSubmitting ? messages.tenancy.creatingClinic : messages.tenancy.createClinicAction}
      </Button>
    </form>
  );
}
