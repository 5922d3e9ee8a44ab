import {
  DEPENDENT_RELATIONSHIP_LABELS,
  DEPENDENT_RELATIONSHIPS,
  dependentCreateSchema,
  dependentUpdateSchema,
  type Dependent,
  type DependentCreateValues,
  type DependentFormFields,
  type DependentsOverview,
} from '@carteirinha/shared/contracts/dependents';
import { formatCpf, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { FormField } from '@/components/ui/form-field';
import { MaskedField } from '@/components/ui/masked-field';
import { NativeSelect } from '@/components/ui/native-select';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useAddDependent, useUpdateDependent } from '../api/dependents';
import { priceChangeText } from '../lib/price-change';

const m = messages.dependents;

/** Editing keeps the CPF as it is (read-only once given): the form carries it only to show it. */
const editFormSchema = dependentUpdateSchema.extend({ cpf: z.string() });

function fieldsOf(dependent: Dependent | null): DependentFormFields {
  return { fullName: dependent?.fullName ?? '', cpf: dependent?.cpf ? formatCpf(dependent.cpf) : '', birthDate: dependent?.birthDate ?? '', relationship: dependent?.relationship ?? '' };
}

type DependentFormDialogProps = {
  /** Adding (null) or editing this dependent; the dialog is shown while `open`. */
  dependent: Dependent | null;
  open: boolean;
  overview: DependentsOverview;
  onClose: () => void;
};

function DependentForm({ dependent, overview, onClose }: Omit<DependentFormDialogProps, 'open'>) {
  const adding = dependent === null;
  const schema: z.ZodType<DependentCreateValues, DependentFormFields> = adding ? dependentCreateSchema : editFormSchema;
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<DependentFormFields, unknown, DependentCreateValues>({ resolver: zodResolver(schema), defaultValues: fieldsOf(dependent) });
  const addDependent = useAddDependent();
  const updateDependent = useUpdateDependent();
  const [refusal, setRefusal] = useState<string | null>(null);

  const onValid = async ({ cpf, ...fields }: DependentCreateValues) => {
    setRefusal(null);
    try {
      if (dependent) await updateDependent.mutateAsync({ id: dependent.id, input: fields });
      else await addDependent.mutateAsync({ cpf, ...fields });
      toast.success(adding ? m.added : m.updated);
      onClose();
    } catch (error) {
      console.warn('Falha ao salvar o dependente', error);
      setRefusal(errorMessage(error));
    }
  };

  return (
    <form noValidate className="grid gap-4" aria-label={adding ? m.addTitle : m.editTitle} onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label={m.fullName} autoComplete="off" error={errors.fullName?.message} {...register('fullName')} />
      {adding ? (
        <MaskedField control={control} name="cpf" kind="cpf" label={m.cpf} error={errors.cpf?.message} />
      ) : (
        <TextField label={m.cpf} readOnly className="bg-muted" description={m.cpfReadOnly} {...register('cpf')} />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField type="date" label={m.birthDate} error={errors.birthDate?.message} {...register('birthDate')} />
        <FormField label={m.relationship} error={errors.relationship?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('relationship')}>
              <option value="">{m.relationshipPlaceholder}</option>
              {DEPENDENT_RELATIONSHIPS.map((key) => (
                <option key={key} value={key}>
                  {DEPENDENT_RELATIONSHIP_LABELS[key]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      </div>
      {adding ? (
        <p role="note" className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="dependent-price-change">
          {priceChangeText(overview, 'add')}
        </p>
      ) : null}
      {refusal ? <ErrorText>{refusal}</ErrorText> : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          {m.cancel}
        </Button>
        <SubmitButton pending={isSubmitting} pendingLabel={m.saving}>
          {adding ? m.confirmAdd : m.save}
        </SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** 'Adicionar' / 'Editar' a dependent: the new price of each cycle is shown before 'Confirmar'. */
export function DependentFormDialog({ dependent, open, overview, onClose }: DependentFormDialogProps) {
  const adding = dependent === null;
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <DialogContent className="max-h-[92dvh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{adding ? m.addTitle : m.editTitle}</DialogTitle>
          <DialogDescription>{adding ? formatMessage(m.priceNow, { price: formatMoney(overview.amountCents) }) : m.description}</DialogDescription>
        </DialogHeader>
        {open ? <DependentForm dependent={dependent} overview={overview} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
