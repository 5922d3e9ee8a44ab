import {
  formatReaisInput,
  planFormSchema,
  SUPPORT_LEVEL_LABELS,
  SUPPORT_LEVELS,
  type PlanFormInput,
  type PlanFormOutput,
  type PlatformPlanRecord,
} from '@carteirinha/shared/contracts/plans';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type BaseSyntheticEvent, type ComponentProps } from 'react';
import { Controller, useForm, type Control, type DefaultValues } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { Textarea } from '@/components/ui/textarea';
import { asyncHandler } from '@/lib/async-handler';
import { savePlan } from '@/lib/save-plan';
import { useCreatePlan } from '../api/create-plan';
import { useUpdatePlan } from '../api/update-plan';

const p = messages.adminPlans;

/** The yes/no fields of the form: the two badges and what the plan includes (specification §9). */
type FlagField = 'popular' | 'isActive' | 'customDomain' | 'fullWhitelabel' | 'mobileApp' | 'advancedReports';
/** The limits are number inputs: what they cannot read must be refused, never taken for "unlimited". */
const LIMIT_FIELDS = ['maxPatients', 'maxClinics'] as const;
type LimitName = (typeof LIMIT_FIELDS)[number];

/** The text fields hold what was typed; the schema turns it into reais, a feature list, limits and a percentage. */
function initialValues(plan: PlatformPlanRecord | null): DefaultValues<PlanFormInput> {
  if (!plan) {
    return {
      name: '',
      price: '',
      description: '',
      features: '',
      maxPatients: '',
      maxClinics: '',
      popular: false,
      isActive: true,
      customDomain: true,
      fullWhitelabel: false,
      mobileApp: false,
      advancedReports: false,
      supportLevel: 'email',
      slaUptimePercent: '',
    };
  }
  return {
    name: plan.name,
    // pt-BR, as people write money: "297,00". A plan "sob consulta" has no price: the field stays empty.
    price: plan.priceCents === null ? '' : formatReaisInput(plan.priceCents),
    description: plan.description ?? '',
    features: plan.features.join('\n'),
    maxPatients: plan.maxPatients === null ? '' : String(plan.maxPatients),
    maxClinics: plan.maxClinics === null ? '' : String(plan.maxClinics),
    popular: plan.popular,
    isActive: plan.isActive,
    customDomain: plan.customDomain,
    fullWhitelabel: plan.fullWhitelabel,
    mobileApp: plan.mobileApp,
    advancedReports: plan.advancedReports,
    supportLevel: plan.supportLevel,
    slaUptimePercent: plan.slaUptimePercent === null ? '' : String(plan.slaUptimePercent).replace('.', ','),
  };
}

function CheckboxField({ control, name, label }: { control: Control<PlanFormInput, unknown, PlanFormOutput>; name: FlagField; label: string }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Checkbox id={id} ref={field.ref} checked={field.value === true} onBlur={field.onBlur} onCheckedChange={(checked) => field.onChange(checked === true)} />
        )}
      />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}

/** A limit of the plan: a whole number above zero, or empty for unlimited. */
function LimitField(props: Omit<ComponentProps<typeof TextField>, 'type' | 'description'>) {
  return <TextField description={p.limitHelp} type="number" inputMode="numeric" step="1" min="1" {...props} />;
}

/**
 * A number input reports text that is not a number ('1e') as empty, which for a limit would mean "unlimited": those
 * fields are read from the form itself and refused instead, as specification §5 refuses what is not a number.
 */
function unreadableLimits(form: unknown): LimitName[] {
  if (!(form instanceof HTMLFormElement)) return [];
  return LIMIT_FIELDS.filter((name) => {
    const input = form.elements.namedItem(name);
    return input instanceof HTMLInputElement && input.validity.badInput;
  });
}

type PlanFormProps = {
  plan: PlatformPlanRecord | null;
  onSaved: () => void;
  onCancel: () => void;
};

function PlanForm({ plan, onSaved, onCancel }: PlanFormProps) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PlanFormInput, unknown, PlanFormOutput>({
    resolver: zodResolver(planFormSchema),
    defaultValues: initialValues(plan),
  });
  const createPlan = useCreatePlan();
  const updatePlan = useUpdatePlan();

  /** Marks the limits the browser could not read; true when there was one. */
  function refuseUnreadableLimits(event: BaseSyntheticEvent | undefined): boolean {
    const unreadable = unreadableLimits(event?.target);
    unreadable.forEach((name, index) => setError(name, { message: messages.admin.integerInvalid }, { shouldFocus: index === 0 }));
    return unreadable.length > 0;
  }

  const onValid = async (values: PlanFormOutput, event?: BaseSyntheticEvent) => {
    if (refuseUnreadableLimits(event)) return;
    await savePlan(values, { planId: plan?.id ?? null, create: (data) => createPlan.mutateAsync(data), update: (input) => updatePlan.mutateAsync(input), onSaved });
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid, (_errors, event) => refuseUnreadableLimits(event)))}>
      <div className="grid gap-4 sm:grid-cols-[1fr_11rem]">
        <TextField label={p.name} error={errors.name?.message} {...register('name')} />
        <TextField
          label={p.price}
          description={p.priceHelp}
          error={errors.price?.message}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          placeholder={messages.admin.priceOnRequest}
          {...register('price')}
        />
      </div>
      <FormField label={p.descriptionLabel} error={errors.description?.message}>
        {(field) => <Textarea {...field} rows={2} {...register('description')} />}
      </FormField>
      <FormField label={p.features} error={errors.features?.message} description={p.featuresHelp}>
        {(field) => <Textarea {...field} rows={4} {...register('features')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <LimitField label={p.maxPatients} error={errors.maxPatients?.message} {...register('maxPatients')} />
        <LimitField label={p.maxClinics} error={errors.maxClinics?.message} {...register('maxClinics')} />
      </div>
      <fieldset className="grid gap-4 rounded-md border p-4">
        <legend className="px-1 text-sm font-medium">{p.includes}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <CheckboxField control={control} name="customDomain" label={p.customDomain} />
          <CheckboxField control={control} name="fullWhitelabel" label={p.fullWhitelabel} />
          <CheckboxField control={control} name="mobileApp" label={p.mobileApp} />
          <CheckboxField control={control} name="advancedReports" label={p.advancedReports} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label={p.support} error={errors.supportLevel?.message}>
            {(field) => (
              <NativeSelect {...field} {...register('supportLevel')}>
                {SUPPORT_LEVELS.map((level) => (
                  <option key={level} value={level}>
                    {SUPPORT_LEVEL_LABELS[level]}
                  </option>
                ))}
              </NativeSelect>
            )}
          </FormField>
          <TextField
            label={p.sla}
            description={p.slaHelp}
            error={errors.slaUptimePercent?.message}
            type="text"
            inputMode="decimal"
            autoComplete="off"
            {...register('slaUptimePercent')}
          />
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-6">
        <CheckboxField control={control} name="popular" label={p.popular} />
        <CheckboxField control={control} name="isActive" label={p.active} />
      </div>
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type PlanFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The plan to edit; null opens 'Novo Plano'. */
  plan: PlatformPlanRecord | null;
};

/** 'Novo Plano' / 'Editar Plano' (specification §2, §5), shared by /admin/planos and the dashboard. */
export function PlanFormDialog({ open, onOpenChange, plan }: PlanFormDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{plan ? p.editPlan : p.newPlan}</DialogTitle>
          <DialogDescription>{plan ? p.editPlanDescription : p.newPlanDescription}</DialogDescription>
        </DialogHeader>
        <PlanForm key={plan?.id ?? 'new'} plan={plan} onSaved={close} onCancel={close} />
      </DialogContent>
    </Dialog>
  );
}
