import { planFormSchema, type PlanFormInput, type PlanFormOutput, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
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
    // A plan "sob consulta" has no price; the form asks for one (specification §5: price required).
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
    formState: { errors, isSubmitting },
  } = useForm<PlanFormInput, unknown, PlanFormOutput>({
    resolver: zodResolver(planFormSchema),
    defaultValues: initialValues(plan),
  });
  const createPlan = useCreatePlan();
  const updatePlan = useUpdatePlan();

  const onValid = async (values: PlanFormOutput) => {
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
        <FormField label="Nome" error={errors.name?.message}>
          {(field) => <Input {...field} {...register('name')} />}
        </FormField>
        <FormField label="Preço (R$)" error={errors.price?.message}>
          {(field) => <Input {...field} type="number" inputMode="decimal" step="0.01" min="0" placeholder="0,00" {...register('price')} />}
        </FormField>
      </div>
      <FormField label="Descrição" error={errors.description?.message}>
        {(field) => <Textarea {...field} rows={2} {...register('description')} />}
      </FormField>
      <FormField label="Recursos" error={errors.features?.message} description="Um recurso por linha">
        {(field) => <Textarea {...field} rows={5} {...register('features')} />}
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Limite de pacientes" error={errors.maxPatients?.message} description="Vazio = ilimitado">
          {(field) => <Input {...field} type="number" inputMode="numeric" step="1" min="1" {...register('maxPatients')} />}
        </FormField>
        <FormField label="Limite de clínicas parceiras" error={errors.maxClinics?.message} description="Vazio = ilimitado">
          {(field) => <Input {...field} type="number" inputMode="numeric" step="1" min="1" {...register('maxClinics')} />}
        </FormField>
      </div>
      <div className="flex flex-wrap gap-6">
        <CheckboxField control={control} name="popular" label="Mais Popular" />
        <CheckboxField control={control} name="isActive" label="Ativo" />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Salvando...' : 'Salvar'}
        </Button>
      </DialogFooter>
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
