import { CLINIC_STATUSES, CLINIC_STATUS_LABELS, type AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { clinicFormSchema, clinicPlanIssue, type ClinicFormInput, type ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { formatPlanPrice, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { MaskedField, maskValue } from '@/components/ui/masked-field';
import { NativeSelect } from '@/components/ui/native-select';
import { CenteredSpinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { ErrorText } from '@/components/ui/error-text';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useCreateClinic } from '../api/create-clinic';
import { useUpdateClinic } from '../api/update-clinic';

const a = messages.adminClinics;
const f = a.fields;

/** Specification §9: the plan label in the clinic form shows name and price ("Sob consulta" without one). */
function planOptionLabel(plan: PlatformPlanRecord): string {
  return formatMessage(a.planOption, { name: plan.name, price: formatPlanPrice(plan.priceCents) });
}

/** The plans a clinic can be put on: the active ones, plus the one it is on now even if that was deactivated. */
function selectablePlans(plans: PlatformPlanRecord[], currentPlanId: string | null): PlatformPlanRecord[] {
  return plans.filter((plan) => plan.isActive || plan.id === currentPlanId);
}

/**
 * The form's schema with the plan rules the server applies too (shared `clinicPlanIssue`): an active plan, or the one
 * the clinic already has, and a plan with a custom domain when a domain is typed.
 */
function clinicFormSchemaWithPlans(plans: PlatformPlanRecord[], currentPlanId: string | null) {
  return clinicFormSchema.superRefine((values, ctx) => {
    const plan = plans.find((candidate) => candidate.id === values.planId) ?? null;
    const issue = clinicPlanIssue(values, plan, currentPlanId);
    if (issue) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
  });
}

/** Specification §4: a new clinic starts active, on the first plan of the list. */
function initialValues(clinic: AdminClinic | null, plans: PlatformPlanRecord[]): ClinicFormInput {
  if (!clinic) {
    return { name: '', cnpj: '', slug: '', domain: '', planId: plans[0]?.id ?? null, status: 'active', city: '', state: '' };
  }
  return {
    name: clinic.name,
    cnpj: maskValue('cnpj', clinic.cnpj),
    slug: clinic.slug,
    domain: clinic.domain ?? '',
    planId: clinic.planId,
    status: clinic.status,
    city: clinic.city ?? '',
    state: clinic.state ?? '',
  };
}

type ClinicFormProps = {
  clinic: AdminClinic | null;
  plans: PlatformPlanRecord[];
  onSaved: () => void;
  onCancel: () => void;
};

function ClinicForm({ clinic, plans, onSaved, onCancel }: ClinicFormProps) {
  const currentPlanId = clinic?.planId ?? null;
  const options = selectablePlans(plans, currentPlanId);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ClinicFormInput, unknown, ClinicFormOutput>({
    resolver: zodResolver(clinicFormSchemaWithPlans(plans, currentPlanId)),
    defaultValues: initialValues(clinic, options),
  });
  const createClinic = useCreateClinic();
  const updateClinic = useUpdateClinic();

  const onValid = async (values: ClinicFormOutput) => {
    try {
      if (clinic) {
        await updateClinic.mutateAsync({ id: clinic.id, data: values });
        toast.success(messages.admin.clinicUpdated);
      } else {
        await createClinic.mutateAsync(values);
        toast.success(messages.admin.clinicCreated);
      }
      onSaved();
    } catch (error) {
      // Specification §8: a failed save is logged and the dialog stays open with what was typed.
      console.warn('Falha ao salvar a clínica', error);
      const template = clinic ? messages.admin.clinicUpdateError : messages.admin.clinicCreateError;
      toast.error(formatMessage(template, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label={f.name} error={errors.name?.message} autoComplete="organization" {...register('name')} />
      <MaskedField control={control} name="cnpj" kind="cnpj" label={f.cnpj} placeholder={a.cnpjPlaceholder} error={errors.cnpj?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={f.slug}
          error={errors.slug?.message}
          description={a.slugHelp}
          placeholder={a.slugPlaceholder}
          autoCapitalize="none"
          spellCheck={false}
          {...register('slug')}
        />
        <TextField
          label={f.domain}
          error={errors.domain?.message}
          placeholder={a.domainPlaceholder}
          autoCapitalize="none"
          spellCheck={false}
          {...register('domain')}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={f.plan} error={errors.planId?.message}>
          {(field) => (
            <Controller
              control={control}
              name="planId"
              render={({ field: { value, onChange, onBlur, name, ref } }) => (
                <NativeSelect
                  {...field}
                  ref={ref}
                  name={name}
                  value={value ?? ''}
                  onBlur={onBlur}
                  onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
                >
                  {options.map((plan) => (
                    <option key={plan.id} value={plan.id}>
                      {planOptionLabel(plan)}
                    </option>
                  ))}
                  <option value="">{a.noPlan}</option>
                </NativeSelect>
              )}
            />
          )}
        </FormField>
        <FormField label={f.status} error={errors.status?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('status')}>
              {CLINIC_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {CLINIC_STATUS_LABELS[status]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_6rem]">
        <TextField label={f.city} error={errors.city?.message} autoComplete="address-level2" {...register('city')} />
        <TextField
          label={f.state}
          error={errors.state?.message}
          maxLength={2}
          autoComplete="address-level1"
          className="uppercase"
          {...register('state')}
        />
      </div>
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type ClinicFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The clinic to edit; null opens 'Nova Clínica'. */
  clinic: AdminClinic | null;
  /** The platform's plans, cheapest first; undefined while they load or when they failed to. */
  plans: PlatformPlanRecord[] | undefined;
  /** Why the plans could not be loaded: the form needs them, so the dialog says so instead of waiting forever. */
  plansError?: Error | null;
  /** Asks for the plans again after `plansError`. */
  onRetryPlans?: () => void;
};

/** What the dialog shows until the plans are there: a spinner, or why they are not coming. */
function PlansPending({ error, onRetry }: { error: Error | null | undefined; onRetry: (() => void) | undefined }) {
  if (!error) {
    return <CenteredSpinner />;
  }
  return (
    <div className="grid justify-items-start gap-3">
      <ErrorText>{formatMessage(messages.adminClinics.plansLoadError, { message: errorMessage(error) })}</ErrorText>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          {a.retryPlans}
        </Button>
      ) : null}
    </div>
  );
}

/** 'Nova Clínica' / 'Editar Clínica' (specification §2, §5), shared by /admin/clinicas and the dashboard. */
export function ClinicFormDialog({ open, onOpenChange, clinic, plans, plansError, onRetryPlans }: ClinicFormDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{clinic ? a.editClinic : a.newClinic}</DialogTitle>
          <DialogDescription>
            {clinic ? a.editClinicDescription : a.newClinicDescription}
          </DialogDescription>
        </DialogHeader>
        {plans ? (
          // Keyed by clinic, so opening another clinic starts from its own values.
          <ClinicForm key={clinic?.id ?? 'new'} clinic={clinic} plans={plans} onSaved={close} onCancel={close} />
        ) : (
          <PlansPending error={plansError} onRetry={onRetryPlans} />
        )}
      </DialogContent>
    </Dialog>
  );
}
