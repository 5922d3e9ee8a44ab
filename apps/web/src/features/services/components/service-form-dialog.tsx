import { SERVICE_CATEGORIES, SERVICE_CATEGORY_LABELS, type Service, type ServiceForm } from '@carteirinha/shared/contracts/services';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { MoneyField } from '@/components/ui/money-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useCreateService, useUpdateService } from '../api/save-service';
import { serviceFormFieldsOf, serviceFormFieldsSchema, type ServiceFormFields } from '../lib/service-form';

const m = messages.services;

function ServiceFormBody({ service, onSaved, onCancel }: { service: Service | null; onSaved: () => void; onCancel: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ServiceFormFields, unknown, ServiceForm>({ resolver: zodResolver(serviceFormFieldsSchema), defaultValues: serviceFormFieldsOf(service) });
  const createService = useCreateService();
  const updateService = useUpdateService();
  // The server's refusal (a name already used, a value it will not take) stays in the dialog, beside the form.
  const [refusal, setRefusal] = useState<string | null>(null);

  const onValid = async (input: ServiceForm) => {
    setRefusal(null);
    try {
      if (service) await updateService.mutateAsync({ id: service.id, input });
      else await createService.mutateAsync(input);
      toast.success(m.saved);
      onSaved();
    } catch (error) {
      console.warn('Falha ao salvar o serviço', error);
      setRefusal(formatMessage(m.saveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate className="grid gap-4" aria-label={service ? m.editTitle : m.newTitle} onSubmit={asyncHandler(handleSubmit(onValid))}>
      <TextField label={m.nameLabel} autoComplete="off" error={errors.name?.message} {...register('name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={m.categoryLabel} error={errors.category?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('category')}>
              <option value="">{m.categoryPick}</option>
              {SERVICE_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {SERVICE_CATEGORY_LABELS[category]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <MoneyField control={control} name="price" label={m.priceLabel} error={errors.price?.message} />
      </div>
      <TextField
        label={m.discountLabel}
        description={m.discountHelp}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        error={errors.discount?.message}
        {...register('discount')}
      />
      {refusal ? <ErrorText>{refusal}</ErrorText> : null}
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

type ServiceFormDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The service to edit; null opens 'Novo Serviço'. */
  service: Service | null;
};

/** 'Novo Serviço' / 'Editar Serviço' of /clinica/servicos (issue 25). */
export function ServiceFormDialog({ open, onOpenChange, service }: ServiceFormDialogProps) {
  const close = () => onOpenChange(false);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>{service ? m.editTitle : m.newTitle}</DialogTitle>
          <DialogDescription>{m.formDescription}</DialogDescription>
        </DialogHeader>
        {open ? <ServiceFormBody key={service?.id ?? 'new'} service={service} onSaved={close} onCancel={close} /> : null}
      </DialogContent>
    </Dialog>
  );
}
