import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import { CreditCardIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useMySubscription } from '../api/get-my-subscription';
import { usePatientPlans } from '../api/list-patient-plans';
import { CancelSubscriptionDialog } from '../components/cancel-subscription-dialog';
import { ChargesTable } from '../components/charges-table';
import { CheckoutDialog } from '../components/checkout-dialog';
import { PatientPlanCard } from '../components/patient-plan-card';
import { PaymentDialog } from '../components/payment-dialog';
import { PaymentMethodDialog } from '../components/payment-method-dialog';
import { SubscriptionSummary } from '../components/subscription-summary';
import { isOpenSubscription } from '../lib/plan-display';

const s = messages.subscriptionPage;

/** A subscription the patient can still change or cancel: open, and no cancellation asked for yet. */
function isManageable(subscription: Subscription | null): subscription is Subscription {
  return subscription !== null && isOpenSubscription(subscription.status) && subscription.canceledAt === null;
}

type PlansGridProps = {
  subscription: Subscription | null;
  onSubscribe: (plan: SubscriptionPlan) => void;
};

/** Specification §2: the clinic's active plans in a three-column grid (one column on a phone). */
function PlansGrid({ subscription, onSubscribe }: PlansGridProps) {
  const plans = usePatientPlans();
  const noteId = useId();
  // One subscription at a time: while one is pending, active or overdue, a second checkout is not offered.
  const blocked = subscription !== null && isOpenSubscription(subscription.status);
  const activePlanId = subscription?.status === 'active' ? subscription.plan.id : null;
  return (
    <section aria-labelledby="plans-title" className="grid gap-4">
      <h2 id="plans-title" className="text-lg font-semibold">
        {s.plansTitle}
      </h2>
      {blocked ? (
        <p id={noteId} className="text-sm text-muted-foreground">
          {s.oneAtATime}
        </p>
      ) : null}
      {plans.isPending ? (
        <p role="status" className="text-muted-foreground">
          {messages.checkout.loadingPlans}
        </p>
      ) : plans.isError ? (
        <ErrorState {...retryPropsOf(plans)} />
      ) : plans.data.length === 0 ? (
        <p className="text-muted-foreground">{s.noPlans}</p>
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {plans.data.map((plan) => (
            <PatientPlanCard
              key={plan.id}
              plan={plan}
              isActivePlan={plan.id === activePlanId}
              blockedNoteId={blocked ? noteId : null}
              onSubscribe={onSubscribe}
            />
          ))}
        </div>
      )}
    </section>
  );
}

/** /paciente/assinatura (specification §2 "Subscription", §4 "Checkout flow"; issue 14). */
export function PatientSubscriptionPage() {
  const subscription = useMySubscription();
  const [checkoutPlan, setCheckoutPlan] = useState<SubscriptionPlan | null>(null);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [changingMethod, setChangingMethod] = useState(false);
  const [canceling, setCanceling] = useState(false);

  const current = subscription.data ?? null;
  const now = new Date();

  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      {subscription.isPending ? (
        <CenteredSpinner />
      ) : subscription.isError ? (
        <ErrorState {...retryPropsOf(subscription)} />
      ) : current ? (
        <SubscriptionSummary
          subscription={current}
          now={now}
          actions={
            isManageable(current) ? (
              <>
                <Button type="button" variant="outline" onClick={() => setChangingMethod(true)}>
                  <CreditCardIcon aria-hidden="true" />
                  {s.changeMethod}
                </Button>
                <Button type="button" variant="outline" className="text-destructive" onClick={() => setCanceling(true)}>
                  {messages.checkout.cancelSubscription}
                </Button>
              </>
            ) : null
          }
        />
      ) : (
        <Card>
          <CardContent className="py-6 text-muted-foreground">{s.noSubscription}</CardContent>
        </Card>
      )}

      {subscription.isSuccess ? <PlansGrid subscription={current} onSubscribe={setCheckoutPlan} /> : null}
      {current ? <ChargesTable onPay={setPayment} /> : null}

      <CheckoutDialog
        plan={checkoutPlan}
        onClose={() => setCheckoutPlan(null)}
        onCreated={(created) => {
          // Specification §4: on success the checkout closes and the payment dialog opens.
          setCheckoutPlan(null);
          setPayment(created);
        }}
      />
      <PaymentDialog
        payment={payment}
        onClose={() => setPayment(null)}
        onPaymentChange={(changed) => setPayment(changed.canSimulate ? changed : null)}
      />
      <PaymentMethodDialog
        open={changingMethod}
        current={current?.paymentMethod ?? null}
        onClose={() => setChangingMethod(false)}
        onChanged={(openCharge) => {
          setChangingMethod(false);
          if (openCharge) setPayment(openCharge);
        }}
      />
      <CancelSubscriptionDialog open={canceling} onClose={() => setCanceling(false)} onCanceled={() => setCanceling(false)} />
    </>
  );
}
