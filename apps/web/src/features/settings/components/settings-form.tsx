import {
  PASSWORD_MIN_LENGTH_SETTING,
  platformSettingsFormSchema,
  type PlatformSettings,
  type PlatformSettingsForm,
  type PlatformSettingsInput,
} from '@carteirinha/shared/contracts/settings';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { BellIcon, DatabaseIcon, GlobeIcon, InfoIcon, MailIcon, ShieldIcon, type LucideIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Controller, useForm, type Control, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardIconHeader } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { MaskedField, maskValue } from '@/components/ui/masked-field';
import { TextField } from '@/components/ui/text-field';
import { UnsavedChangesGuard } from '@/components/ui/unsaved-changes-guard';
import { ApiError } from '@/lib/api';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { showValidationToast, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { useBackupNow, useSaveSettings, useTestSmtp } from '../api/settings';
import { ReauthenticationDialog } from './reauthentication-dialog';

const s = messages.settings;

type FormValues = PlatformSettingsForm;
type BooleanField = { [K in FieldPath<FormValues>]: FormValues[K] extends boolean ? K : never }[FieldPath<FormValues>];

function formValuesOf(settings: PlatformSettings): FormValues {
  return {
    platformName: settings.platformName,
    supportEmail: settings.supportEmail,
    phone: maskValue('phone', settings.phone),
    notifyNewClinics: settings.notifyNewClinics,
    notifyPendingPayments: settings.notifyPendingPayments,
    notifyAutomaticReports: settings.notifyAutomaticReports,
    notifyCancellations: settings.notifyCancellations,
    requireAdminTwoFactor: settings.requireAdminTwoFactor,
    googleLogin: settings.googleLogin,
    allowMultipleSessions: settings.allowMultipleSessions,
    sessionTimeoutMinutes: String(settings.sessionTimeoutMinutes),
    passwordMinLength: String(settings.passwordMinLength),
    smtpHost: settings.smtpHost ?? '',
    smtpPort: String(settings.smtpPort),
    smtpUser: settings.smtpUser ?? '',
    smtpPassword: '',
    backupDailyEnabled: settings.backupDailyEnabled,
    backupRetentionDays: String(settings.backupRetentionDays),
  };
}

function SettingsCard({ icon, title, description, children }: { icon: LucideIcon; title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardIconHeader icon={icon} title={title} description={description} />
      <CardContent className="grid gap-4">{children}</CardContent>
    </Card>
  );
}

/** One toggle: its label and hint name and describe the switch; `note` adds a fact about this server (said plainly). */
function ToggleRow({ control, name, label, hint, note }: { control: Control<FormValues>; name: BooleanField; label: string; hint: string; note?: string | null }) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
        {note ? (
          <p id={`${id}-note`} className="text-sm text-muted-foreground italic">
            {note}
          </p>
        ) : null}
      </div>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            name={name}
            aria-describedby={[`${id}-hint`, note ? `${id}-note` : null].filter(Boolean).join(' ')}
            checked={field.value === true}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />
    </div>
  );
}

/** The one note about the demo defaults (issue 4: the screen says that the demo seed turned two-factor off). */
function DemoNote() {
  const titleId = useId();
  return (
    <aside aria-labelledby={titleId} className="flex gap-3 rounded-lg border bg-muted/50 p-4 text-sm">
      <InfoIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
      <div className="grid gap-1">
        <p id={titleId} className="font-medium">
          {s.demoNoteTitle}
        </p>
        <p className="text-muted-foreground">{s.demoNote}</p>
      </div>
    </aside>
  );
}

/** /admin/configuracoes: every setting of the platform, saved by 'Salvar Alterações' and enforced by the server. */
export function SettingsForm({ settings }: { settings: PlatformSettings }) {
  const save = useSaveSettings();
  const testSmtp = useTestSmtp();
  const backupNow = useBackupNow();
  const {
    register,
    control,
    handleSubmit,
    reset,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<FormValues, unknown, PlatformSettingsInput>({
    resolver: zodResolver(platformSettingsFormSchema),
    defaultValues: formValuesOf(settings),
  });
  useDismissValidationToastWhenValid(errors);

  // Values waiting for the admin's password (the server asked for it: REAUTHENTICATION_REQUIRED).
  const [awaitingPassword, setAwaitingPassword] = useState<PlatformSettingsInput | null>(null);

  const persist = async (values: PlatformSettingsInput) => {
    const saved = await save.mutateAsync(values);
    reset(formValuesOf(saved));
    toast.success(s.saved);
  };

  const onValid = async (values: PlatformSettingsInput) => {
    try {
      await persist(values);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'REAUTHENTICATION_REQUIRED') setAwaitingPassword(values);
      // The form keeps what was typed; only a value the server refused is a validation error.
      else if (error instanceof ApiError && error.status === 400) showValidationToast(errorMessage(error));
      else toast.error(errorMessage(error));
    }
  };

  const onPasswordConfirmed = async (currentPassword: string) => {
    if (!awaitingPassword) return null;
    try {
      await persist({ ...awaitingPassword, currentPassword });
      setAwaitingPassword(null);
      return null;
    } catch (error) {
      return errorMessage(error);
    }
  };

  const onTestConnection = async () => {
    const parsed = platformSettingsFormSchema.pick({ smtpHost: true, smtpPort: true, smtpUser: true, smtpPassword: true }).safeParse(getValues());
    if (!parsed.success) {
      toast.error(s.testConnection, { description: parsed.error.issues[0]?.message ?? messages.validation.invalidRequest });
      return;
    }
    if (!parsed.data.smtpHost) {
      toast.error(s.testConnection, { description: s.smtpHostRequired });
      return;
    }
    try {
      const result = await testSmtp.mutateAsync(parsed.data);
      if (result.ok) toast.success(result.message);
      else toast.error(s.testConnection, { description: result.message });
    } catch (error) {
      toast.error(s.testConnection, { description: errorMessage(error) });
    }
  };

  const onBackupNow = () =>
    backupNow.mutate(undefined, {
      onSuccess: () => toast.success(s.backupDone),
      onError: (error) => toast.error(s.backupNow, { description: errorMessage(error) }),
    });

  return (
    <>
      {/* Leaving with changes not saved asks first (a link, 'Sair', a reload). */}
      <UnsavedChangesGuard when={isDirty && !isSubmitting} />
      <form
        noValidate
        aria-label={s.title}
        // The sticky save bar covers the foot of the window: a field brought into view (Tab, or the first error on
        // 'Salvar Alterações') stops above it, with room for its hint or error, instead of behind it.
        className="grid gap-6 [&_:is(input,textarea,select,button,[role=switch])]:scroll-mb-36"
        onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => {
          const first = Object.values(formErrors)[0]?.message;
          showValidationToast(typeof first === 'string' ? first : messages.validation.invalidRequest);
        }))}
      >
        {settings.demoSeed ? <DemoNote /> : null}

        {/* Cards of like height side by side, and security across the width: no card stands alone or half empty. */}
        <div className="grid gap-6 lg:grid-cols-2">
          <SettingsCard icon={GlobeIcon} title={s.general} description={s.generalDescription}>
            <TextField label={s.platformName} autoComplete="organization" error={errors.platformName?.message} {...register('platformName')} />
            <TextField label={s.supportEmail} type="email" autoComplete="email" error={errors.supportEmail?.message} {...register('supportEmail')} />
            <TextField label={s.mainDomain} value={settings.mainDomain} readOnly description={s.mainDomainHint} />
            <MaskedField control={control} name="phone" kind="phone" label={s.phone} placeholder={s.phonePlaceholder} error={errors.phone?.message} />
          </SettingsCard>

          <SettingsCard icon={MailIcon} title={s.smtp} description={s.smtpDescription}>
            <TextField
              label={s.smtpHost}
              placeholder={s.smtpHostPlaceholder}
              autoComplete="off"
              description={settings.smtpHost ? undefined : s.smtpNotConfigured}
              error={errors.smtpHost?.message}
              {...register('smtpHost')}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label={s.smtpPort} type="number" inputMode="numeric" min={1} max={65535} error={errors.smtpPort?.message} {...register('smtpPort')} />
              <TextField label={s.smtpUser} autoComplete="off" error={errors.smtpUser?.message} {...register('smtpUser')} />
            </div>
            <TextField
              label={s.smtpPassword}
              type="password"
              autoComplete="new-password"
              description={settings.smtpPasswordSet ? s.smtpPasswordKeep : undefined}
              error={errors.smtpPassword?.message}
              {...register('smtpPassword')}
            />
            <Button type="button" variant="outline" className="justify-self-start" disabled={testSmtp.isPending} onClick={() => void onTestConnection()}>
              {testSmtp.isPending ? s.testingConnection : s.testConnection}
            </Button>
          </SettingsCard>

          <SettingsCard icon={BellIcon} title={s.notifications} description={s.notificationsDescription}>
            <ToggleRow control={control} name="notifyNewClinics" label={s.notifyNewClinics} hint={s.notifyNewClinicsHint} />
            <ToggleRow control={control} name="notifyPendingPayments" label={s.notifyPendingPayments} hint={s.notifyPendingPaymentsHint} />
            <ToggleRow control={control} name="notifyAutomaticReports" label={s.notifyAutomaticReports} hint={s.notifyAutomaticReportsHint} />
            <ToggleRow control={control} name="notifyCancellations" label={s.notifyCancellations} hint={s.notifyCancellationsHint} />
          </SettingsCard>

          <SettingsCard icon={DatabaseIcon} title={s.backup} description={s.backupDescription}>
            <ToggleRow control={control} name="backupDailyEnabled" label={s.backupDaily} hint={s.backupDailyHint} />
            <p data-testid="last-backup" className="text-sm text-muted-foreground">
              {settings.lastBackup ? formatMessage(s.lastBackup, { date: formatDateTime(settings.lastBackup.createdAt) }) : s.noBackupYet}
            </p>
            <TextField
              label={s.retentionDays}
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              error={errors.backupRetentionDays?.message}
              {...register('backupRetentionDays')}
            />
            <Button type="button" variant="outline" className="justify-self-start" disabled={backupNow.isPending} onClick={onBackupNow}>
              {backupNow.isPending ? s.backingUp : s.backupNow}
            </Button>
          </SettingsCard>

          <Card className="lg:col-span-2">
            <CardIconHeader icon={ShieldIcon} title={s.security} description={s.securityDescription} />
            <CardContent className="grid gap-6 md:grid-cols-2">
              <div className="grid content-start gap-4">
                <ToggleRow control={control} name="requireAdminTwoFactor" label={s.requireAdminTwoFactor} hint={s.requireAdminTwoFactorHint} />
                <ToggleRow
                  control={control}
                  name="googleLogin"
                  label={s.googleLogin}
                  hint={s.googleLoginHint}
                  note={settings.googleAvailable ? null : s.googleUnavailable}
                />
                <ToggleRow control={control} name="allowMultipleSessions" label={s.allowMultipleSessions} hint={s.allowMultipleSessionsHint} />
              </div>
              <div className="grid content-start gap-4">
                <TextField
                  label={s.sessionTimeout}
                  type="number"
                  inputMode="numeric"
                  min={5}
                  max={720}
                  description={s.sessionTimeoutHint}
                  error={errors.sessionTimeoutMinutes?.message}
                  {...register('sessionTimeoutMinutes')}
                />
                <TextField
                  label={s.passwordMinLength}
                  type="number"
                  inputMode="numeric"
                  min={PASSWORD_MIN_LENGTH_SETTING.min}
                  max={PASSWORD_MIN_LENGTH_SETTING.max}
                  description={s.passwordMinLengthHint}
                  error={errors.passwordMinLength?.message}
                  {...register('passwordMinLength')}
                />
              </div>
            </CardContent>
          </Card>
        </div>

        {/* Always in reach: on a phone the form is thousands of pixels long. */}
        <div
          role="region"
          aria-label={s.saveBar}
          className="sticky bottom-4 z-10 flex items-center justify-end gap-3 rounded-lg border bg-background px-4 py-3 shadow-md"
        >
          <p className="min-w-0 text-xs text-muted-foreground sm:text-sm" aria-live="polite">
            {isDirty ? s.unsavedChanges : s.noUnsavedChanges}
          </p>
          {/* Nothing to save until something changed, as on the clinic's settings screen. */}
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? messages.common.saving : s.save}
          </Button>
        </div>
      </form>
      {/* Outside the settings form: React events bubble through portals, and its submit must not submit this one. */}
      <ReauthenticationDialog
        open={awaitingPassword !== null}
        onOpenChange={(open) => {
          if (!open) setAwaitingPassword(null);
        }}
        onConfirm={onPasswordConfirmed}
      />
    </>
  );
}
