import { PAYMENT_METHOD_LABELS } from '@carteirinha/shared/contracts/payments';
import { SUBSCRIPTION_STATUS_LABELS, type CancellationSummary, type MySubscription, type Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { cycleSuffix, endedAtOf, statusBadgeVariant } from '../lib/plan-display';

const s = messages.subscriptionPage;
export const SUBSCRIPTION_TITLE_ID = 'current-subscription-title';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-sm text-muted-foreground">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

/** The cancellation's state in words: done, or scheduled for the end of the paid period. */
function cancellationNote(subscription: Subscription, now: Date): string | null {
  if (!subscription.canceledAt) return null;
  if (subscription.status === 'canceled') return formatMessage(s.canceledOn, { date: formatDate(subscription.canceledAt) });
  if (subscription.expiresAt && new Date(subscription.expiresAt) > now) return formatMessage(s.cancellationScheduled, { date: formatDate(subscription.expiresAt) });
  return null;
}

/** Where a cancellation's refund stands, in words, with its amount. */
function refundText(cancellation: CancellationSummary): string {
  switch (cancellation.refundStatus) {
    case 'none':
      return s.refundNone;
    case 'processing':
      return formatMessage(s.refundProcessing, { amount: formatMoney(cancellation.refundCents) });
    case 'done':
      return formatMessage(s.refundDone, { amount: formatMoney(cancellation.refundedCents) });
  }
}

type SubscriptionSummaryProps = {
  subscription: MySubscription;
  now: Date;
  /** 'Alterar forma de pagamento' and 'Cancelar assinatura', when they apply. */
  actions: ReactNode;
};

/** The current subscription (issue 14): status, plan, amount, paid-through, carência, method, cancellation. */
export function SubscriptionSummary({ subscription, now, actions }: SubscriptionSummaryProps) {
  const waitingEnds = subscription.benefitsStartAt && new Date(subscription.benefitsStartAt) > now ? subscription.benefitsStartAt : null;
  const note = cancellationNote(subscription, now);
  const endedAt = endedAtOf(subscription, now);
  return (
    <Card aria-labelledby={SUBSCRIPTION_TITLE_ID} role="region">
      <CardHeader>
        <CardDescription>{s.currentTitle}</CardDescription>
        <div className="flex flex-wrap items-center gap-3">
          <CardTitle asChild className="text-xl">
            {/* Focus lands here when a dialog whose button is gone closes (the checkout's payment dialog). */}
            <h2 id={SUBSCRIPTION_TITLE_ID} tabIndex={-1} className="outline-none">
              {subscription.plan.name}
            </h2>
          </CardTitle>
          <Badge data-testid="subscription-status" variant={statusBadgeVariant(subscription.status)}>
            {SUBSCRIPTION_STATUS_LABELS[subscription.status]}
          </Badge>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <Detail term={s.amount}>
            {subscription.amountCents === null ? '-' : `${formatMoney(subscription.amountCents)}${cycleSuffix(subscription.plan.billingCycle)}`}
          </Detail>
          {endedAt ? (
            <Detail term={s.endedAt}>{formatDate(endedAt)}</Detail>
          ) : (
            <Detail term={s.paidThrough}>{subscription.expiresAt ? formatDate(subscription.expiresAt) : s.notPaidYet}</Detail>
          )}
          {waitingEnds ? <Detail term={s.waitingEnds}>{formatDate(waitingEnds)}</Detail> : null}
          <Detail term={s.paymentMethod}>
            {subscription.company
              ? formatMessage(s.paidByCompany, { company: subscription.company.name })
              : subscription.paymentMethod
                ? PAYMENT_METHOD_LABELS[subscription.paymentMethod]
                : '-'}
          </Detail>
        </dl>
        {note ? (
          <div role="status" className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm">
            <p className="font-medium">{note}</p>
            {subscription.cancellation ? (
              <dl className="grid gap-1 sm:grid-cols-[auto_1fr] sm:gap-x-3" data-testid="cancellation-receipt">
                <dt className="text-muted-foreground">{s.protocol}</dt>
                <dd className="font-mono">{subscription.cancellation.protocol}</dd>
                <dt className="text-muted-foreground">{s.refundLabel}</dt>
                <dd>{refundText(subscription.cancellation)}</dd>
              </dl>
            ) : null}
            <p>{s.receiptEmailed}</p>
          </div>
        ) : null}
      </CardContent>
      {actions ? <CardFooter className="flex flex-wrap gap-2">{actions}</CardFooter> : null}
    </Card>
  );
}
