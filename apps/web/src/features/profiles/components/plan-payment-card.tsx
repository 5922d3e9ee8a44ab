import { PAYMENT_METHOD_LABELS } from '@carteirinha/shared/contracts/payments';
import { SUBSCRIPTION_STATUS_LABELS, type MySubscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatDate, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Suspense } from 'react';
import { Link } from 'react-router';
import { lazyComponent } from '@/lib/lazy-component';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/section-card';
import { cycleSuffix, isOpenSubscription, statusBadgeVariant } from '@/features/subscriptions/lib/plan-display';

const p = messages.patientProfile;
// The switch, its confirmation and its card form load after the page (the block shows the words meanwhile).
const AutoRenewalSwitch = lazyComponent(() => import('./auto-renewal-switch'), (m) => m.AutoRenewalSwitch);

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2 border-b py-2 last:border-0">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/**
 * 'Plano e pagamento': the real plan, price, method and next charge of the patient's subscription. Renewal is automatic
 * until the patient cancels (then the plan ends at the paid-through date); cancelling, with its withdrawal rules and
 * receipt, lives on the subscription page this links to.
 */
export function PlanPaymentCard({ subscription }: { subscription: MySubscription | null }) {
  const open = subscription !== null && isOpenSubscription(subscription.status);
  const renews = open && subscription.canceledAt === null;
  const renewalWords = renews ? p.autoRenewalOn : formatMessage(p.autoRenewalOff, { date: subscription?.expiresAt ? formatDate(subscription.expiresAt) : '-' });
  return (
    <SectionCard id="profile-plan-title" title={p.planTitle}>
        {subscription ? (
          <dl>
            <Row label={p.plan}>
              <span className="mr-2">{subscription.plan.name}</span>
              <Badge variant={statusBadgeVariant(subscription.status)}>{SUBSCRIPTION_STATUS_LABELS[subscription.status]}</Badge>
            </Row>
            <Row label={p.price}>{`${formatMoney(subscription.amountCents ?? subscription.plan.priceCents)}${cycleSuffix(subscription.plan.billingCycle)}`}</Row>
            <Row label={p.paymentMethod}>{subscription.paymentMethod ? PAYMENT_METHOD_LABELS[subscription.paymentMethod] : '-'}</Row>
            <Row label={p.nextCharge}>{renews && subscription.expiresAt ? formatDate(subscription.expiresAt) : '-'}</Row>
            <Row label={p.autoRenewal}>
              {subscription.autoRenewal === 'fixed' ? (
                renewalWords
              ) : (
                <Suspense fallback={renewalWords}>
                  <AutoRenewalSwitch subscription={subscription} />
                </Suspense>
              )}
            </Row>
          </dl>
        ) : (
          <p className="text-sm text-muted-foreground">{p.noPlan}</p>
        )}
        <div>
          <Button asChild variant="outline">
            <Link to="/paciente/assinatura">{p.manageSubscription}</Link>
          </Button>
        </div>
    </SectionCard>
  );
}
