import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { PlanChange } from '@carteirinha/shared/contracts/plan-changes';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ArrowRightLeftIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ErrorText } from '@/components/ui/error-text';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useCancelPlanChange } from '../api/plan-change';

const m = messages.planChange;

function noticeOf(change: PlanChange): string {
  if (change.kind === 'downgrade') return formatMessage(m.scheduled, { plan: change.toPlanName, date: change.effectiveAt ? formatDate(change.effectiveAt) : '-' });
  return formatMessage(m.awaitingPayment, { plan: change.toPlanName, charge: formatMoney(change.chargeCents) });
}

type PlanChangeNoticeProps = {
  change: PlanChange;
  /** Opens the upgrade's charge to pay it. */
  onPay: (payment: Payment) => void;
};

/** A change of plan asked for and not yet in effect, with 'Ver pagamento' (an upgrade) and 'Desistir da troca'. */
export function PlanChangeNotice({ change, onPay }: PlanChangeNoticeProps) {
  const cancel = useCancelPlanChange();
  const [failure, setFailure] = useState<string | null>(null);
  const payment = change.payment;
  const giveUp = async () => {
    setFailure(null);
    try {
      await cancel.mutateAsync();
      toast.success(m.canceledChange);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  return (
    <Card role="region" aria-label={m.chargeLabel}>
      <CardContent className="grid gap-3 py-4">
        <p className="flex items-start gap-2 font-medium" data-testid="plan-change-notice">
          <ArrowRightLeftIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          {noticeOf(change)}
        </p>
        <div className="flex flex-wrap gap-2">
          {payment && (payment.status === 'pending' || payment.status === 'overdue') ? (
            <Button type="button" onClick={() => onPay(payment)}>
              {m.payNow}
            </Button>
          ) : null}
          <Button type="button" variant="outline" disabled={cancel.isPending} onClick={() => void giveUp()}>
            {m.cancelChange}
          </Button>
        </div>
        {failure ? <ErrorText>{failure}</ErrorText> : null}
      </CardContent>
    </Card>
  );
}
