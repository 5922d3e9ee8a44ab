import { PLAN_CHANGE_MIN_CHARGE_CENTS } from '@carteirinha/shared/constants';
import type { PlanChange, PlanChangeOption, PlanChangeOverview } from '@carteirinha/shared/contracts/plan-changes';
import type { BillingCycle } from '@carteirinha/shared/contracts/subscription-plans';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { ErrorText } from '@/components/ui/error-text';
import { Label } from '@/components/ui/label';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useRequestPlanChange } from '../api/plan-change';
import { EMPTY_CARD, paymentMethodFormSchema, type PaymentMethodFormInput, type PaymentMethodFormOutput } from '../lib/checkout-form';
import { cycleSuffix } from '../lib/plan-display';
import { cardRegistrations, CreditCardFields, PaymentMethodChoice } from './payment-method-fields';

const m = messages.planChange;

/** What the change does, in the words the patient confirms: what is paid now and when the new plan is in effect. */
function summaryOf(option: PlanChangeOption): string {
  if (option.kind === 'downgrade') return formatMessage(m.downgradeSummary, { plan: option.planName, date: option.effectiveAt ? formatDate(option.effectiveAt) : '-' });
  if (option.chargeCents === 0) return formatMessage(m.upgradeNoCharge, { plan: option.planName, min: formatMoney(PLAN_CHANGE_MIN_CHARGE_CENTS) });
  return formatMessage(m.upgradeSummary, { plan: option.planName, charge: formatMoney(option.chargeCents), days: option.remainingDays });
}

type KeepDependentsProps = {
  option: PlanChangeOption;
  dependents: PlanChangeOverview['dependents'];
  kept: string[];
  onChange: (kept: string[]) => void;
};

/** 'Quem continua coberto': asked only when the new plan covers fewer dependents than the holder has. */
function KeepDependents({ option, dependents, kept, onChange }: KeepDependentsProps) {
  const baseId = useId();
  const room = option.maxDependents;
  return (
    <fieldset className="grid gap-2 rounded-md border p-4">
      <legend className="px-1 text-sm font-medium">{m.keepTitle}</legend>
      <p className="text-sm text-muted-foreground">{room === 0 ? formatMessage(m.keepNone, { plan: option.planName }) : formatMessage(m.keepHelp, { plan: option.planName, max: room })}</p>
      {room > 0
        ? dependents.map((dependent, index) => {
            const id = `${baseId}-${index}`;
            const checked = kept.includes(dependent.id);
            return (
              <div key={dependent.id} className="flex items-center gap-2">
                <Checkbox id={id} checked={checked} onCheckedChange={(next) => onChange(next === true ? [...kept, dependent.id] : kept.filter((keptId) => keptId !== dependent.id))} />
                <Label htmlFor={id}>{dependent.fullName}</Label>
              </div>
            );
          })
        : null}
    </fieldset>
  );
}

type PlanChangeFormProps = {
  option: PlanChangeOption;
  overview: PlanChangeOverview;
  onDone: (change: PlanChange) => void;
  onCancel: () => void;
};

function PlanChangeForm({ option, overview, onDone, onCancel }: PlanChangeFormProps) {
  const request = useRequestPlanChange();
  const mustChoose = overview.dependents.length > option.maxDependents;
  const [kept, setKept] = useState<string[]>(() => overview.dependents.slice(0, option.maxDependents).map((dependent) => dependent.id));
  const [failure, setFailure] = useState<string | null>(null);
  const paysNow = option.kind === 'upgrade' && option.chargeCents > 0;
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<PaymentMethodFormInput, unknown, PaymentMethodFormOutput>({
    resolver: zodResolver(paymentMethodFormSchema),
    defaultValues: { paymentMethod: 'pix', card: EMPTY_CARD },
  });
  const paymentMethod = useWatch({ control, name: 'paymentMethod' });
  const tooMany = mustChoose && kept.length > option.maxDependents;

  const onValid = async (values: PaymentMethodFormOutput) => {
    if (tooMany) return;
    setFailure(null);
    try {
      const change = await request.mutateAsync({
        planId: option.planId,
        keepDependentIds: mustChoose ? kept : [],
        ...(paysNow ? { paymentMethod: values.paymentMethod, ...(values.creditCard ? { creditCard: values.creditCard } : {}) } : {}),
      });
      onDone(change);
    } catch (error) {
      // The answer stays in view, beside what it is about, not under a toast.
      setFailure(errorMessage(error));
    } finally {
      // The card is handed to the provider and forgotten here.
      setValue('card', EMPTY_CARD);
    }
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid))}>
      <p className="rounded-md border bg-muted/40 p-3 text-sm" data-testid="plan-change-summary">
        {summaryOf(option)}
      </p>
      {mustChoose ? <KeepDependents option={option} dependents={overview.dependents} kept={kept} onChange={setKept} /> : null}
      {tooMany ? <ErrorText>{formatMessage(m.keepTooMany, { max: option.maxDependents })}</ErrorText> : null}
      {paysNow ? (
        <>
          <PaymentMethodChoice radio={register('paymentMethod')} selected={paymentMethod} />
          {paymentMethod === 'credit_card' ? (
            <CreditCardFields
              errors={errors.card}
              fields={cardRegistrations(register)}
            />
          ) : null}
        </>
      ) : null}
      {failure ? <ErrorText>{failure}</ErrorText> : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {m.cancel}
        </Button>
        <Button type="submit" disabled={request.isPending || tooMany}>
          {request.isPending ? m.confirming : option.kind === 'upgrade' ? m.confirmUpgrade : m.confirmDowngrade}
        </Button>
      </DialogFooter>
    </form>
  );
}

type PlanChangeDialogProps = {
  /** The plan chosen; null keeps the dialog closed. */
  option: PlanChangeOption | null;
  overview: PlanChangeOverview | undefined;
  billingCycle: BillingCycle;
  onClose: () => void;
  /** The change asked for: a pending upgrade's charge is paid next. */
  onDone: (change: PlanChange) => void;
};

/** 'Trocar para este plano' (issue 27, ADR 028): what changing costs and when it takes effect, before confirming. */
export function PlanChangeDialog({ option, overview, billingCycle, onClose, onDone }: PlanChangeDialogProps) {
  return (
    <Dialog open={option !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{option ? formatMessage(m.title, { plan: option.planName }) : ''}</DialogTitle>
          <DialogDescription>{option ? formatMessage(m.newPrice, { price: `${formatMoney(option.amountCents)}${cycleSuffix(billingCycle)}` }) : ''}</DialogDescription>
        </DialogHeader>
        {option && overview ? <PlanChangeForm option={option} overview={overview} onDone={onDone} onCancel={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}
