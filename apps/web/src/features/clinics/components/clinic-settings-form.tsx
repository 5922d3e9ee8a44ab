import {
  CLINIC_NOTIFICATIONS,
  clinicSettingsFormSchema,
  type ClinicNotification,
  type ClinicSettings,
  type ClinicSettingsForm as ClinicSettingsValues,
  type ClinicSettingsFormInput,
  type OpeningHours,
} from '@carteirinha/shared/contracts/clinics';
import { formatCnpj } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { Controller, useForm, type Control, type FieldErrors } from 'react-hook-form';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { MaskedField } from '@/components/ui/masked-field';
import { SectionCard } from '@/components/ui/section-card';
import { SubmitButton } from '@/components/ui/submit-button';
import { Switch } from '@/components/ui/switch';
import { TextField } from '@/components/ui/text-field';
import { UnsavedChangesGuard } from '@/components/ui/unsaved-changes-guard';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useSaveClinicSettings } from '../api/clinic-settings';
import { DEFAULT_OPENING, formValuesOf } from '../lib/clinic-settings-form';
import { SiteAddress } from './site-address';

const c = messages.clinicSettings;

type FormControl = Control<ClinicSettingsFormInput, unknown, ClinicSettingsValues>;

/** One day's row: 'Aberto' and, when open, 'Abre às' and 'Fecha às' (24-hour clock, as the browser's time input). */
function OpeningDay({ control, day, label, errors }: { control: FormControl; day: keyof OpeningHours; label: string; errors: FieldErrors<ClinicSettingsFormInput> }) {
  const id = useId();
  const dayErrors = errors.openingHours?.[day];
  return (
    <Controller
      control={control}
      name={`openingHours.${day}`}
      render={({ field }) => {
        const period = field.value;
        return (
          <fieldset className="grid gap-3 rounded-lg border p-4" data-testid={`hours-${day}`}>
            <legend className="px-1 text-sm font-medium">{label}</legend>
            <div className="flex items-center gap-3">
              <Switch id={`${id}-open`} checked={period !== null} onCheckedChange={(open) => field.onChange(open ? DEFAULT_OPENING[day] : null)} />
              <Label htmlFor={`${id}-open`}>{c.openDay}</Label>
            </div>
            {period ? (
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  type="time"
                  label={c.opensAt}
                  value={period.open}
                  error={dayErrors && 'open' in dayErrors ? dayErrors.open?.message : undefined}
                  onChange={(event) => field.onChange({ ...period, open: event.target.value })}
                />
                <TextField
                  type="time"
                  label={c.closesAt}
                  value={period.close}
                  error={dayErrors && 'close' in dayErrors ? dayErrors.close?.message : undefined}
                  onChange={(event) => field.onChange({ ...period, close: event.target.value })}
                />
              </div>
            ) : (
              <p className="text-sm text-muted-foreground">{messages.priceTable.closed}</p>
            )}
          </fieldset>
        );
      }}
    />
  );
}

/** One notification switch with the e-mail it turns off, read with it. */
function NotificationSwitch({ control, name }: { control: FormControl; name: ClinicNotification }) {
  const id = useId();
  const { label, description } = c.notifications[name];
  return (
    <div className="flex items-start justify-between gap-4 border-b py-3 last:border-0">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {description}
        </p>
      </div>
      <Controller
        control={control}
        name={`notifications.${name}`}
        render={({ field }) => (
          <Switch id={id} name={field.name} aria-describedby={`${id}-hint`} checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} />
        )}
      />
    </div>
  );
}

/**
 * Configurações' clinic data, opening hours, notification switches and grace period, saved together by 'Salvar
 * Alterações' and read back from the server's answer. The CNPJ is shown, never sent: it does not change here.
 */
export function ClinicSettingsForm({ settings }: { settings: ClinicSettings }) {
  const save = useSaveClinicSettings();
  const cnpjId = useId();
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ClinicSettingsFormInput, unknown, ClinicSettingsValues>({ resolver: zodResolver(clinicSettingsFormSchema), defaultValues: formValuesOf(settings) });

  const onValid = async (values: ClinicSettingsValues) => {
    try {
      const saved = await save.mutateAsync(values);
      reset(formValuesOf(saved));
      toast.success(c.saved);
    } catch (error) {
      console.warn('Falha ao salvar as configurações da clínica', error);
      toast.error(formatMessage(c.saveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="grid gap-6" data-testid="clinic-settings-form">
      <UnsavedChangesGuard when={isDirty && !isSubmitting} />
      <SectionCard id="clinic-data-title" title={c.dataTitle} description={c.dataDescription}>
        <TextField label={c.name} autoComplete="organization" error={errors.name?.message} {...register('name')} />
        <div className="grid gap-1.5">
          <Label htmlFor={cnpjId}>{c.cnpj}</Label>
          <Input id={cnpjId} value={formatCnpj(settings.cnpj)} readOnly aria-describedby={`${cnpjId}-note`} className="bg-muted" />
          <p id={`${cnpjId}-note`} className="text-sm text-muted-foreground">
            {c.cnpjReadOnly}
          </p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <MaskedField control={control} name="phone" kind="phone" label={c.phone} error={errors.phone?.message} />
          <TextField type="email" label={c.email} autoComplete="email" error={errors.contactEmail?.message} {...register('contactEmail')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr_8rem]">
          <MaskedField control={control} name="postalCode" kind="cep" label={c.postalCode} error={errors.postalCode?.message} />
          <TextField label={c.street} autoComplete="address-line1" error={errors.street?.message} {...register('street')} />
          <TextField label={c.streetNumber} error={errors.streetNumber?.message} {...register('streetNumber')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={c.complement} autoComplete="address-line2" error={errors.addressComplement?.message} {...register('addressComplement')} />
          <TextField label={c.district} error={errors.district?.message} {...register('district')} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
          <TextField label={c.city} autoComplete="address-level2" error={errors.city?.message} {...register('city')} />
          <TextField label={c.state} autoComplete="address-level1" maxLength={2} error={errors.state?.message} {...register('state')} />
        </div>
      </SectionCard>

      <SectionCard id="clinic-hours-title" title={c.hoursTitle} description={c.hoursDescription}>
        <OpeningDay control={control} day="weekdays" label={c.weekdays} errors={errors} />
        <OpeningDay control={control} day="saturday" label={c.saturday} errors={errors} />
      </SectionCard>

      <SectionCard id="clinic-notifications-title" title={c.notificationsTitle} description={c.notificationsDescription}>
        <div>
          {CLINIC_NOTIFICATIONS.map((name) => (
            <NotificationSwitch key={name} control={control} name={name} />
          ))}
        </div>
      </SectionCard>

      <SectionCard id="clinic-grace-title" title={c.graceTitle}>
        <TextField
          type="number"
          inputMode="numeric"
          label={c.graceLabel}
          description={c.graceHelp}
          wrapperClassName="max-w-48"
          error={errors.graceDays?.message}
          {...register('graceDays', { valueAsNumber: true })}
        />
      </SectionCard>

      <SectionCard id="clinic-site-title" title={c.siteTitle} description={messages.firstSteps.siteDescription}>
        <SiteAddress siteUrl={settings.siteUrl} clinicName={settings.name} />
      </SectionCard>

      <div className="flex justify-end">
        <SubmitButton pending={isSubmitting} pendingLabel={messages.common.saving}>
          {c.save}
        </SubmitButton>
      </div>
    </form>
  );
}
