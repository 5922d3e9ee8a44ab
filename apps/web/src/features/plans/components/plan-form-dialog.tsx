import { planFormSchema, type PlanFormInput, type PlanFormOutput, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type BaseSyntheticEvent, type ComponentProps } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { toast } from 'sonner';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { TextField } from '@/components/ui/text-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/error-message';
import { useCreatePlan } from '../api/create-plan';
import { useUpdatePlan } from '../api/update-plan';

/** The form's text fields hold what was typed; the schema turns them into reais, a feature list and limits. */
type PlanFormValues = {
  name: string;
  price: string;
  description: string;
  features: string;
  maxPatients: string;
  maxClinics: string;
  popular: boolean;
  isActive: boolean;
};

function initialValues(plan: PlatformPlanRecord | null): PlanFormValues {
  if (!plan) {
    return { name: '', price: '', description: '', features: '', maxPatients: '', maxClinics: '', popular: false, isActive: true };
  }
  return {
    name: plan.name,
    // A plan "sob consulta" has no price: the field stays empty.
    price: plan.priceCents === null ? '' : (plan.priceCents / 100).toFixed(2),
    description: plan.description ?? '',
    features: plan.features.join('\n'),
    maxPatients: plan.maxPatients === null ? '' : String(plan.maxPatients),
    maxClinics: plan.maxClinics === null ? '' : String(plan.maxClinics),
    popular: plan.popular,
    isActive: plan.isActive,
  };
}

function CheckboxField({ control, name, label }: { control: Control<PlanFormInput, unknown, PlanFormOutput>; name: 'popular' | 'isActive'; label: string }) {
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
  return <TextField description="Vazio = ilimitado" type="number" inputMode="numeric" step="1" min="1" {...props} />;
}

/**
 * A number input reports text that is not a number ('1e') as empty, which here would mean "sob consulta": the form
 * refuses it instead, as specification §5 refuses a non-numeric price.
 */
function priceIsNotANumber(form: unknown): boolean {
  if (!(form instanceof HTMLFormElement)) return false;
  const input = form.elements.namedItem('price');
  return input instanceof HTMLInputElement && input.validity.badInput;
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

  const onValid = async (values: PlanFormOutput, event?: BaseSyntheticEvent) => {
    if (priceIsNotANumber(event?.target)) {
      setError('price', { message: messages.admin.priceInvalid }, { shouldFocus: true });
      return;
    }
    try {
      if (plan) {
        await updatePlan.mutateAsync({ id: plan.id, data: values });
        toast.success(messages.admin.planUpdated);
      } else {
        await createPlan.mutateAsync(values);
        toast.success(messages.admin.planCreated);
      }
      onSaved();
    } catch (error) {
      // Specification §8: a failed save (plans included) is logged and the dialog stays open.
      console.warn('Falha ao salvar o plano', error);
      const template = plan ? messages.admin.planUpdateError : messages.admin.planCreateError;
      toast.error(formatMessage(template, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={handleSubmit(onValid)}>
      <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
        <TextField label="Nome" error={errors.name?.message} {...register('name')} />
        <TextField
          label="Preço (R$)"
          description={messages.admin.priceOnRequestHint}
          error={errors.price?.message}
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0"
          placeholder={messages.admin.priceOnRequest}
          {...register('price')}
        />
      </div>
      <FormField label="Descrição" error={errors.description?.message}>
        {(field) => <Textarea {...field} rows={2} {...register('description')} />}
      </FormField>
      <FormField label="Recursos" error={errors.features?.message} description="Um recurso por linha">
        {(field) => <Textarea {...field} rows={5} {...register('features')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <LimitField label="Limite de pacientes" error={errors.maxPatients?.message} {...register('maxPatients')} />
        <LimitField label="Limite de clínicas parceiras" error={errors.maxClinics?.message} {...register('maxClinics')} />
      </div>
      <div className="flex flex-wrap gap-6">
        <CheckboxField control={control} name="popular" label="Mais Popular" />
        <CheckboxField control={control} name="isActive" label="Ativo" />
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
          <DialogTitle>{plan ? 'Editar Plano' : 'Novo Plano'}</DialogTitle>
          <DialogDescription>{plan ? 'Altere o plano e salve.' : 'Crie um plano para oferecer às clínicas.'}</DialogDescription>
        </DialogHeader>
        <PlanForm key={plan?.id ?? 'new'} plan={plan} onSaved={close} onCancel={close} />
      </DialogContent>
    </Dialog>
  );
}
