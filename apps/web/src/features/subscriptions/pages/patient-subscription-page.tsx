import { PLAN_PARAM } from '@carteirinha/shared/constants';
import type { Payment } from '@carteirinha/shared/contracts/payments';
import type { PlanChange, PlanChangeOption } from '@carteirinha/shared/contracts/plan-changes';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { Subscription } from '@carteirinha/shared/contracts/subscriptions';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CreditCardIcon } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useMySubscription } from '../api/get-my-subscription';
import { usePatientPlans } from '../api/list-patient-plans';
import { usePlanChangeOverview } from '../api/plan-change';
import { ChargesTable } from '../components/charges-table';
import { PatientPlanCard } from '../components/patient-plan-card';
import { PlanChangeNotice } from '../components/plan-change-notice';
import { SubscriptionSummary } from '../components/subscription-summary';
import { isOpenSubscription } from '../lib/plan-display';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';

// The forms of subscribing, paying, changing and cancelling load when their dialog first opens.
const CheckoutDialog = lazyComponent(() => import('../components/checkout-dialog'), (m) => m.CheckoutDialog);
const PaymentDialog = lazyComponent(() => import('../components/payment-dialog'), (m) => m.PaymentDialog);
const PaymentMethodDialog = lazyComponent(() => import('../components/payment-method-dialog'), (m) => m.PaymentMethodDialog);
const CancelSubscriptionDialog = lazyComponent(() => import('../components/cancel-subscription-dialog'), (m) => m.CancelSubscriptionDialog);
const PlanChangeDialog = lazyComponent(() => import('../components/plan-change-dialog'), (m) => m.PlanChangeDialog);

const s = messages.subscriptionPage;

/** A subscription the patient can still change or cancel: open, and no cancellation asked for yet. */
function isManageable(subscription: Subscription | null): subscription is Subscription {
  return subscription !== null && isOpenSubscription(subscription.status) && subscription.canceledAt === null;
}

type PlansGridProps = {
  subscription: Subscription | null;
  onSubscribe: (plan: SubscriptionPlan) => void;
  /** The plans the patient may move to from theirs (issue 27), each with what the change costs. */
  changeOptions: PlanChangeOption[];
  onChangePlan: (option: PlanChangeOption) => void;
};

/** Specification §2: the clinic's active plans in a three-column grid (one column on a phone). */
function PlansGrid({ subscription, onSubscribe, changeOptions, onChangePlan }: PlansGridProps) {
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
          {/* With a plan to change to, the way is the change (issue 27), not cancelling first. */}
          {changeOptions.length > 0 ? messages.planChange.intro : s.oneAtATime}
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
              changeOption={changeOptions.find((option) => option.planId === plan.id) ?? null}
              onChangePlan={onChangePlan}
            />
          ))}
        </div>
      )}
    </section>
  );
}

/**
 * The plan chosen on the clinic's site before sign-up (`?plano=<id>`): its checkout opens once the page knows the
 * plans and the patient's subscription, unless one is already open (the page says one at a time). The marker is then
 * dropped from the address, so a reload or 'Voltar' does not open it again.
 */
function useChosenPlan(subscription: Subscription | null | undefined, openCheckout: (plan: SubscriptionPlan) => void): void {
  const [searchParams, setSearchParams] = useSearchParams();
  const chosenId = searchParams.get(PLAN_PARAM);
  const plans = usePatientPlans();
  useEffect(() => {
    if (!chosenId || subscription === undefined || !plans.data) return;
    const plan = plans.data.find((candidate) => candidate.id === chosenId);
    if (plan && !(subscription && isOpenSubscription(subscription.status))) openCheckout(plan);
    setSearchParams(
      (params) => {
        params.delete(PLAN_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [chosenId, subscription, plans.data, openCheckout, setSearchParams]);
}

/** /paciente/assinatura (specification §2 "Subscription", §4 "Checkout flow"; issue 14). */
export function PatientSubscriptionPage() {
  const subscription = useMySubscription();
  const [checkoutPlan, setCheckoutPlan] = useState<SubscriptionPlan | null>(null);
  useChosenPlan(subscription.isSuccess ? subscription.data : undefined, setCheckoutPlan);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [changingMethod, setChangingMethod] = useState(false);
  const [canceling, setCanceling] = useState(false);
  const [changeOption, setChangeOption] = useState<PlanChangeOption | null>(null);

  const current = subscription.data ?? null;
  const planChange = usePlanChangeOverview(isManageable(current));
  const pendingChange = planChange.data?.pending ?? null;

  const onPlanChangeDone = (change: PlanChange) => {
    setChangeOption(null);
    if (change.status === 'applied') toast.success(formatMessage(messages.planChange.applied, { plan: change.toPlanName }));
    else if (change.kind === 'downgrade') toast.success(messages.planChange.requested);
    // An upgrade is paid next: its charge opens at once.
    if (change.status === 'pending' && change.payment) setPayment(change.payment);
  };
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
                {/* A company-paid plan has no charge through the platform, so no method to change (issue 26). */}
                {current.company ? null : (
                  <Button type="button" variant="outline" onClick={() => setChangingMethod(true)}>
                    <CreditCardIcon aria-hidden="true" />
                    {s.changeMethod}
                  </Button>
                )}
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

      {pendingChange ? <PlanChangeNotice change={pendingChange} onPay={setPayment} /> : null}
      {subscription.isSuccess ? (
        <PlansGrid subscription={current} onSubscribe={setCheckoutPlan} changeOptions={isManageable(current) ? (planChange.data?.options ?? []) : []} onChangePlan={setChangeOption} />
      ) : null}
      {current ? <ChargesTable onPay={setPayment} /> : null}

      <LoadWhenOpen open={checkoutPlan !== null}>
        <CheckoutDialog
          plan={checkoutPlan}
          onClose={() => setCheckoutPlan(null)}
          onCreated={(created) => {
            // Specification §4: on success the checkout closes and the payment dialog opens.
            setCheckoutPlan(null);
            setPayment(created);
          }}
        />
      </LoadWhenOpen>
      <LoadWhenOpen open={payment !== null}>
        <PaymentDialog
          payment={payment}
          onClose={() => setPayment(null)}
          onPaymentChange={(changed) => setPayment(changed.canSimulate ? changed : null)}
        />
      </LoadWhenOpen>
      <LoadWhenOpen open={changingMethod}>
        <PaymentMethodDialog
          open={changingMethod}
          current={current?.paymentMethod ?? null}
          onClose={() => setChangingMethod(false)}
          onChanged={(openCharge) => {
            setChangingMethod(false);
            if (openCharge) setPayment(openCharge);
          }}
        />
      </LoadWhenOpen>
      <LoadWhenOpen open={changeOption !== null}>
        <PlanChangeDialog
          option={changeOption}
          overview={planChange.data}
          billingCycle={current?.plan.billingCycle ?? 'monthly'}
          onClose={() => setChangeOption(null)}
          onDone={onPlanChangeDone}
        />
      </LoadWhenOpen>
      <LoadWhenOpen open={canceling}>
        <CancelSubscriptionDialog open={canceling} onClose={() => setCanceling(false)} onCanceled={() => setCanceling(false)} />
      </LoadWhenOpen>
    </>
  );
}
