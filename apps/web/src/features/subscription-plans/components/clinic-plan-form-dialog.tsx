import { BILLING_CYCLES, type BillingCycle, type SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { MoneyField } from '@/components/ui/money-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { Textarea } from '@/components/ui/textarea';
import { asyncHandler } from '@/lib/async-handler';
import { savePlan } from '@/lib/save-plan';
import { useCreateClinicPlan, useUpdateClinicPlan } from '../api/save-clinic-plan';
import { useReportDirty } from '../lib/use-dirty-parts';
import { clinicPlanFormSchema, planFormValues, type ClinicPlanFormInput, type ClinicPlanFormOutput } from '../lib/plan-form';

const p = messages.clinicPlans;

const CYCLE_LABELS: Record<BillingCycle, string> = { monthly: p.monthly, yearly: p.yearly };

/** A whole number typed in a number input; empty or unreadable reaches the schema as NaN and is refused there. */
const wholeNumber = { valueAsNumber: true } as const;

type ClinicPlanFormProps = {
  plan: SubscriptionPlan | null;
  onDirtyChange: (dirty: boolean) => void;
  onSaved: () => void;
  onCancel: () => void;
};

function ClinicPlanForm({ plan, onDirtyChange, onSaved, onCancel }: ClinicPlanFormProps) {
  const activeId = useId();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ClinicPlanFormInput, unknown, ClinicPlanFormOutput>({
    resolver: zodResolver(clinicPlanFormSchema),
    defaultValues: planFormValues(plan),
  });
  // Leaving the page with the dialog's changes unsaved asks first (the page's UnsavedChangesGuard).
  useReportDirty(isDirty && !isSubmitting, onDirtyChange);
  const createPlan = useCreateClinicPlan();
  const updatePlan = useUpdateClinicPlan();

  const onValid = (values: ClinicPlanFormOutput) =>
    savePlan(values, { planId: plan?.id ?? null, create: (data) => createPlan.mutateAsync(data), update: (input) => updatePlan.mutateAsync(input), onSaved });

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label={p.name} error={errors.name?.message} {...register('name')} />
      <FormField label={p.descriptionLabel} error={errors.description?.message}>
        {(field) => <Textarea {...field} rows={2} {...register('description')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-3">
        <MoneyField control={control} name="priceCents" label={p.price} error={errors.priceCents?.message} />
        <MoneyField control={control} name="dependentPriceCents" label={p.dependentPrice} error={errors.dependentPriceCents?.message} />
        <MoneyField control={control} name="adhesionFeeCents" label={p.adhesionFee} error={errors.adhesionFeeCents?.message} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label={p.billingCycle} error={errors.billingCycle?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('billingCycle')}>
              {BILLING_CYCLES.map((cycle) => (
                <option key={cycle} value={cycle}>
                  {CYCLE_LABELS[cycle]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <TextField
          label={p.maxMembers}
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          error={errors.maxMembers?.message}
          {...register('maxMembers', wholeNumber)}
        />
        <TextField
          label={p.waitingDays}
          description={p.waitingDaysHelp}
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          error={errors.waitingDays?.message}
          {...register('waitingDays', wholeNumber)}
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label={p.discountConsultas}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          error={errors.discounts?.consultas?.message}
          {...register('discounts.consultas', wholeNumber)}
        />
        <TextField
          label={p.discountExames}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          error={errors.discounts?.exames?.message}
          {...register('discounts.exames', wholeNumber)}
        />
        <TextField
          label={p.discountProcedimentos}
          type="number"
          inputMode="numeric"
          min={0}
          max={100}
          error={errors.discounts?.procedimentos?.message}
          {...register('discounts.procedimentos', wholeNumber)}
        />
      </div>
      <FormField label={p.features} description={p.featuresHelp} error={errors.features?.message}>
        {(field) => <Textarea {...field} rows={4} {...register('features')} />}
      </FormField>
      <div className="flex items-center gap-2">
        <Controller
          control={control}
          name="isActive"
          render={({ field }) => (
            <Checkbox id={activeId} ref={field.ref} checked={field.value} onBlur={field.onBlur} onCheckedChange={(checked) => field.onChange(checked === true)} />
          )}
        />
        <Label htmlFor={activeId}>{p.activeLabel}</Label>
      </div>
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type ClinicPlanFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The plan to edit; null opens 'Novo Plano'. */
  plan: SubscriptionPlan | null;
  onDirtyChange: (dirty: boolean) => void;
};

/** 'Novo Plano' / 'Editar Plano' of /clinica/planos (issue 14). */
export function ClinicPlanFormDialog({ open, onOpenChange, plan, onDirtyChange }: ClinicPlanFormDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{plan ? p.editPlan : p.newPlan}</DialogTitle>
          <DialogDescription>{plan ? p.editPlanDescription : p.newPlanDescription}</DialogDescription>
        </DialogHeader>
        {open ? <ClinicPlanForm key={plan?.id ?? 'new'} plan={plan} onDirtyChange={onDirtyChange} onSaved={close} onCancel={close} /> : null}
      </DialogContent>
    </Dialog>
  );
}
