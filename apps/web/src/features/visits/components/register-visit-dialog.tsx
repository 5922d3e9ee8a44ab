import { SERVICE_CATEGORIES, SERVICE_CATEGORY_LABELS, type CategoryDiscounts, type Service } from '@carteirinha/shared/contracts/services';
import { VISIT_STATUS_LABELS, VISIT_STATUSES } from '@carteirinha/shared/contracts/visits';
import { formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { FormDialogFooter } from '@/components/ui/form-dialog-footer';
import { FormField } from '@/components/ui/form-field';
import { MoneyField } from '@/components/ui/money-field';
import { NativeSelect } from '@/components/ui/native-select';
import { TextField } from '@/components/ui/text-field';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useCreateVisit } from '../api/create-visit';
import { useServices } from '@/features/services/api/list-services';
import { chargeOf, EMPTY_VISIT_FORM, OTHER_SERVICE, visitAmountsOf, visitFormSchema, visitRequestOf, type VisitFormValues } from '../lib/visit-form';

const s = messages.cardScreens;
const v = messages.visitsScreen;

/** The validated card a visit is recorded for, with its plan's discounts. */
export type VisitCard = {
  cardId: string;
  /** As printed, grouped in fours. */
  cardNumber: string;
  personName: string;
  discounts: CategoryDiscounts;
};

function serviceOptionText(service: Service): string {
  return `${service.name} — ${SERVICE_CATEGORY_LABELS[service.category]} — ${formatMoney(service.priceCents)}`;
}

/** The live figures under the form: the service's own % or the plan's for its category, the discount and the final value. */
function VisitPreview({ control, services, discounts }: { control: Control<VisitFormValues>; services: Service[]; discounts: VisitCard['discounts'] }) {
  const values = useWatch({ control });
  const charge = chargeOf({ ...EMPTY_VISIT_FORM, ...values }, services);
  const amounts = charge ? visitAmountsOf(charge, discounts) : null;
  const rows: [string, string][] = [
    [s.originalValue, charge ? formatMoney(charge.priceCents) : '—'],
    [s.discountPercent, amounts ? `${amounts.discountPercent}%` : '—'],
    [s.discountValue, amounts ? formatMoney(amounts.discountCents) : '—'],
    [s.finalValue, amounts ? formatMoney(amounts.finalCents) : '—'],
  ];
  return (
    <dl className="grid gap-1 rounded-lg bg-muted p-3 text-sm" data-testid="visit-preview">
      {rows.map(([term, value]) => (
        <div key={term} className="flex justify-between gap-3">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="font-medium tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function VisitForm({ card, services, onSaved, onCancel }: { card: VisitCard; services: Service[]; onSaved: () => void; onCancel: () => void }) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<VisitFormValues>({ resolver: zodResolver(visitFormSchema), defaultValues: EMPTY_VISIT_FORM });
  const serviceId = useWatch({ control, name: 'serviceId' });
  const when = useWatch({ control, name: 'when' });
  const createVisit = useCreateVisit();

  const onValid = async (values: VisitFormValues) => {
    try {
      const visit = await createVisit.mutateAsync(visitRequestOf(card.cardId, values));
      toast.success(visit.bookedAt ? formatMessage(v.booked, { date: formatDateTime(visit.performedAt) }) : s.visitSaved);
      onSaved();
    } catch (error) {
      console.warn('Falha ao registrar o atendimento', error);
      toast.error(formatMessage(s.visitSaveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="grid gap-4">
      <FormField label={s.serviceLabel} error={errors.serviceId?.message}>
        {(field) => (
          <NativeSelect {...field} {...register('serviceId')}>
            <option value="">{s.servicePick}</option>
            {services.map((service) => (
              <option key={service.id} value={service.id}>
                {serviceOptionText(service)}
              </option>
            ))}
            <option value={OTHER_SERVICE}>{s.serviceOther}</option>
          </NativeSelect>
        )}
      </FormField>
      {serviceId === OTHER_SERVICE ? (
        <>
          <TextField label={s.serviceNameLabel} error={errors.serviceName?.message} autoComplete="off" {...register('serviceName')} />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label={s.categoryLabel} error={errors.category?.message}>
              {(field) => (
                <NativeSelect {...field} {...register('category')}>
                  <option value="">{s.categoryPick}</option>
                  {SERVICE_CATEGORIES.map((category) => (
                    <option key={category} value={category}>
                      {SERVICE_CATEGORY_LABELS[category]}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </FormField>
            <MoneyField control={control} name="price" label={`${s.priceLabel} (R$)`} error={errors.price?.message} />
          </div>
        </>
      ) : null}
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">{v.whenLabel}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="now" className="size-4 accent-primary" {...register('when')} />
          {v.whenNow}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="later" className="size-4 accent-primary" {...register('when')} />
          {v.whenLater}
        </label>
      </fieldset>
      {when === 'later' ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField type="date" label={v.dateLabel} error={errors.date?.message} {...register('date')} />
            <TextField type="time" label={v.timeLabel} error={errors.time?.message} {...register('time')} />
          </div>
          <TextField label={v.professionalLabel} placeholder={v.professionalPlaceholder} autoComplete="off" maxLength={120} {...register('professional')} />
        </>
      ) : (
        <FormField label={s.statusLabel} error={errors.status?.message}>
          {(field) => (
            <NativeSelect {...field} {...register('status')}>
              {VISIT_STATUSES.filter((status) => status !== 'cancelado').map((status) => (
                <option key={status} value={status}>
                  {VISIT_STATUS_LABELS[status]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
      )}
      <VisitPreview control={control} services={services} discounts={card.discounts} />
      <FormDialogFooter pending={isSubmitting} onCancel={onCancel} />
    </form>
  );
}

function DialogBody({ card, onClose }: { card: VisitCard; onClose: () => void }) {
  const services = useServices();
  if (services.error) return <ErrorState variant="inline" {...retryPropsOf(services)} />;
  if (!services.data) return <p className="text-sm text-muted-foreground">{messages.common.loading}</p>;
  const active = services.data.filter((service) => service.isActive);
  return <VisitForm card={card} services={active} onSaved={onClose} onCancel={onClose} />;
}

/** 'Registrar Atendimento': a service of the price list (or typed), its card price (own discount or the plan's), saved. */
export function RegisterVisitDialog({ card, open, onOpenChange }: { card: VisitCard; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{messages.cards.registerVisit}</DialogTitle>
          <DialogDescription>{formatMessage(s.visitDialogDescription, { name: card.personName, number: card.cardNumber })}</DialogDescription>
        </DialogHeader>
        {open ? <DialogBody card={card} onClose={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
