import type { PlanChangeOption } from '@carteirinha/shared/contracts/plan-changes';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckCircle2Icon, UsersIcon } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { featuresBesidesDiscounts } from '@/lib/plan-features';
import { cycleSuffix } from '../lib/plan-display';

const s = messages.subscriptionPage;

/** The plan's discounts as the patient reads them; a 0 % discount is no benefit, so it is left out. */
function discountLines(discounts: SubscriptionPlan['discounts']): string[] {
  const lines: [string, number][] = [
    [messages.patient.benefitConsultas, discounts.consultas],
    [messages.patient.benefitExames, discounts.exames],
    [messages.patient.benefitProcedimentos, discounts.procedimentos],
  ];
  return lines.filter(([, percent]) => percent > 0).map(([template, percent]) => formatMessage(template, { percent }));
}

type PatientPlanCardProps = {
  plan: SubscriptionPlan;
  /** This is the plan of the active subscription: 'Plano Ativo', disabled. */
  isActivePlan: boolean;
  /** The id of the note saying why 'Assinar Agora' cannot be used now (another subscription is open); null when it can. */
  blockedNoteId: string | null;
  onSubscribe: (plan: SubscriptionPlan) => void;
  /** The patient may move to this plan from theirs (issue 27): 'Trocar para este plano' instead of 'Assinar Agora'. */
  changeOption?: PlanChangeOption | null;
  onChangePlan?: (option: PlanChangeOption) => void;
};

/** One of the clinic's plans (specification §2 "Subscription"), as an article named by the plan. */
export function PatientPlanCard({ plan, isActivePlan, blockedNoteId, onSubscribe, changeOption = null, onChangePlan }: PatientPlanCardProps) {
  const titleId = useId();
  // A feature line that only repeats a discount ("Consultas com 30% de desconto") is listed once, as the discount.
  const features = [...featuresBesidesDiscounts(plan.features, plan.discounts), ...discountLines(plan.discounts)];
  const changing = changeOption !== null && onChangePlan !== undefined && !isActivePlan;
  const disabled = !changing && (isActivePlan || blockedNoteId !== null);
  return (
    <Card role="article" aria-labelledby={titleId} className="flex flex-col">
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h3 id={titleId}>{plan.name}</h3>
        </CardTitle>
        {plan.description ? <CardDescription>{plan.description}</CardDescription> : null}
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-4">
        <div className="grid gap-1">
          <p>
            <span className="text-3xl font-bold">{formatMoney(plan.priceCents)}</span>
            <span className="text-muted-foreground">{cycleSuffix(plan.billingCycle)}</span>
          </p>
          {plan.dependentPriceCents > 0 ? (
            <p className="text-sm text-muted-foreground">{formatMessage(s.perDependent, { price: formatMoney(plan.dependentPriceCents) })}</p>
          ) : null}
          {plan.adhesionFeeCents > 0 ? (
            <p className="text-sm text-muted-foreground">{formatMessage(s.adhesionFee, { price: formatMoney(plan.adhesionFeeCents) })}</p>
          ) : null}
        </div>
        <p className="flex items-center gap-2 text-sm">
          <UsersIcon aria-hidden="true" className="size-4 text-primary" />
          {plan.maxMembers > 1 ? formatMessage(messages.cards.upToMembers, { count: plan.maxMembers }) : s.holderOnly}
        </p>
        {features.length > 0 ? (
          <ul className="grid gap-2">
            {features.map((feature, index) => (
              <li key={`${index}-${feature}`} className="flex items-start gap-2 text-sm">
                <CheckCircle2Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                {feature}
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
      <CardFooter>
        <Button
          type="button"
          className="w-full"
          disabled={disabled}
          aria-describedby={!isActivePlan && !changing && blockedNoteId ? blockedNoteId : undefined}
          onClick={() => (changing ? onChangePlan(changeOption) : onSubscribe(plan))}
        >
          {isActivePlan ? messages.checkout.activePlan : changing ? messages.planChange.change : messages.checkout.subscribeNow}
        </Button>
      </CardFooter>
    </Card>
  );
}
