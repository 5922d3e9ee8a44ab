import { GRACE_DAYS_MAX, GRACE_DAYS_MIN, type BillingSettings } from '@carteirinha/shared/contracts/payments';
import { updateBillingSettingsRequestSchema, type UpdateBillingSettingsRequest } from '@carteirinha/shared/contracts/payments';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { CenteredSpinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useBillingSettings, useUpdateBillingSettings } from '../api/billing-settings';
import { useReportDirty } from '../lib/use-dirty-parts';

const p = messages.clinicPlans;

const billingFormFieldsSchema = z.object({ graceDays: z.number(messages.billingSettings.graceDaysRange), asaasApiKey: z.string(), asaasWalletId: z.string() });
type BillingFormInput = z.input<typeof billingFormFieldsSchema>;

/**
 * The key field is write-only: it starts empty and is sent only when something was typed (absent keeps the connected
 * key), so saving the grace days never disconnects the account.
 */
function requestOf(values: BillingFormInput): UpdateBillingSettingsRequest {
  const key = values.asaasApiKey.trim();
  return {
    graceDays: values.graceDays,
    ...(key === '' ? {} : { asaasApiKey: key }),
    asaasWalletId: values.asaasWalletId.trim(),
  };
}

/** The form as typed, turned into the request and checked with the shared request schema. */
const billingFormSchema = billingFormFieldsSchema.transform(requestOf).pipe(updateBillingSettingsRequestSchema);

type DirtyReport = { onDirtyChange: (dirty: boolean) => void };

function BillingForm({ settings, onDirtyChange }: { settings: BillingSettings } & DirtyReport) {
  const update = useUpdateBillingSettings();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<BillingFormInput, unknown, UpdateBillingSettingsRequest>({
    resolver: zodResolver(billingFormSchema),
    defaultValues: { graceDays: settings.graceDays, asaasApiKey: '', asaasWalletId: settings.asaasWalletId ?? '' },
  });
  useReportDirty(isDirty && !isSubmitting, onDirtyChange);

  const onValid = async (request: UpdateBillingSettingsRequest) => {
    try {
      const saved = await update.mutateAsync(request);
      reset({ graceDays: saved.graceDays, asaasApiKey: '', asaasWalletId: saved.asaasWalletId ?? '' });
      toast.success(p.billingSaved);
    } catch (error) {
      toast.error(formatMessage(p.billingSaveError, { message: errorMessage(error) }));
    }
  };

  return (
    <form noValidate onSubmit={asyncHandler(handleSubmit(onValid))} className="grid gap-4">
      <CardContent className="grid gap-4">
        <TextField
          label={p.graceDays}
          description={p.graceDaysHelp}
          type="number"
          inputMode="numeric"
          min={GRACE_DAYS_MIN}
          max={GRACE_DAYS_MAX}
          step={1}
          error={errors.graceDays?.message}
          wrapperClassName="max-w-xs"
          {...register('graceDays', { valueAsNumber: true })}
        />
        <div className="flex items-center gap-2 text-sm">
          <span className="font-medium">{p.asaasStatus}:</span>
          <Badge data-testid="asaas-status" variant={settings.asaasConnected ? 'default' : 'secondary'}>
            {settings.asaasConnected ? p.asaasConnected : p.asaasNotConnected}
          </Badge>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={p.asaasKey}
            description={p.asaasKeyHelp}
            type="password"
            autoComplete="off"
            error={errors.asaasApiKey?.message}
            {...register('asaasApiKey')}
          />
          <TextField label={p.walletId} autoComplete="off" error={errors.asaasWalletId?.message} {...register('asaasWalletId')} />
        </div>
      </CardContent>
      <CardFooter className="justify-end">
        <Button type="submit" disabled={isSubmitting || !isDirty}>
          {isSubmitting ? messages.common.saving : messages.common.save}
        </Button>
      </CardFooter>
    </form>
  );
}

/** 'Cobrança': the grace period before an overdue subscription's benefits stop, and the clinic's Asaas account. */
export function BillingSection({ onDirtyChange }: DirtyReport) {
  const settings = useBillingSettings();
  return (
    <Card role="region" aria-labelledby="billing-section-title">
      <CardHeader>
        <CardTitle asChild>
          <h2 id="billing-section-title">{p.billingTitle}</h2>
        </CardTitle>
        <CardDescription>{p.billingDescription}</CardDescription>
      </CardHeader>
      {settings.isPending ? (
        <CenteredSpinner />
      ) : settings.isError ? (
        <CardContent>
          <ErrorState {...retryPropsOf(settings)} />
        </CardContent>
      ) : (
        <BillingForm settings={settings.data} onDirtyChange={onDirtyChange} />
      )}
    </Card>
  );
}
