import { PLAN_PARAM, TRIAL_DAYS } from '@carteirinha/shared/constants';
import type { PublicPlatformPlan } from '@carteirinha/shared/contracts/plans';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ErrorText } from '@/components/ui/error-text';
import { CenteredSpinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';
import { usePublicPlans } from '../api/get-public-plans';
import { SectionHeading } from './section-heading';

const SALES_EMAIL = 'vendas@carteirinha.dev';

const m = messages.landing;

/** Whole-real prices read as in §9 ("R$ 297"); a price with centavos keeps them. */
function formatPlanPrice(priceCents: number): string {
  return formatMoney(priceCents).replace(/,00$/, '');
}

/**
 * Section #pricing: the platform plans a clinic can subscribe to (§9, "Landing-page plans"), read from the plans the
 * admin keeps active in /admin/planos, so a new price or a retired plan shows here at once.
 */
export function PricingSection() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-32 py-20 md:scroll-mt-20 md:py-28">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <SectionHeading
          id="pricing-title"
          eyebrow={m.pricing.eyebrow}
          title={m.pricing.title}
          description={m.pricing.description}
        />
        <p className="mt-6 flex justify-center">
          <span className="rounded-full bg-accent px-4 py-1.5 text-sm font-medium text-accent-foreground">
            {formatMessage(m.pricing.trial, { days: TRIAL_DAYS })}
          </span>
        </p>
        <PlanList />
      </div>
    </section>
  );
}

function PlanList() {
  const { data: plans, isPending, isError } = usePublicPlans();
  if (isPending) return <CenteredSpinner />;
  if (isError) {
    return (
      <Notice>
        <ErrorText>{m.plansLoadError}</ErrorText>
      </Notice>
    );
  }
  if (plans.length === 0) {
    return (
      <Notice>
        <p className="text-muted-foreground">{m.noPlans}</p>
      </Notice>
    );
  }
  return (
    <ul className="mx-auto mt-14 grid max-w-md gap-8 lg:max-w-none lg:grid-cols-3 lg:items-start">
      {plans.map((plan) => (
        <PlanCard key={plan.id} plan={plan} />
      ))}
    </ul>
  );
}

function Notice({ children }: { children: ReactNode }) {
  return <div className="mt-14 flex justify-center text-center">{children}</div>;
}

function PlanCard({ plan }: { plan: PublicPlatformPlan }) {
  return (
    <li
      className={cn(
        'relative flex flex-col rounded-2xl border bg-card p-8 text-card-foreground shadow-xs',
        plan.popular && 'border-2 border-primary shadow-xl lg:-mt-4 lg:pb-12',
      )}
    >
      {plan.popular && (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold whitespace-nowrap text-primary-foreground shadow-sm">
          {m.pricing.mostPopular}
        </p>
      )}
      <h3 className="text-xl font-semibold">{plan.name}</h3>
      {plan.description ? <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p> : null}
      <PlanPrice priceCents={plan.priceCents} />
      <ul className="mt-8 space-y-3 text-sm">
        {plan.features.map((feature) => (
          <li key={feature} className="flex items-start gap-3">
            <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            {feature}
          </li>
        ))}
      </ul>
      <div className="mt-8 pt-2 lg:mt-auto lg:pt-8">
        <PlanAction plan={plan} />
      </div>
    </li>
  );
}

function PlanPrice({ priceCents }: { priceCents: number | null }) {
  if (priceCents === null) {
    return <p className="mt-6 text-4xl font-bold tracking-tight">{messages.admin.priceOnRequest}</p>;
  }
  return (
    <p className="mt-6 flex items-baseline gap-1">
      <span className="text-4xl font-bold tracking-tight">{formatPlanPrice(priceCents)}</span>
      <span className="text-sm font-medium text-muted-foreground">{messages.common.perMonth}</span>
    </p>
  );
}

/** Priced plans start a sign-up that carries the plan on to onboarding; the custom plan (Enterprise) goes to sales by email. */
function PlanAction({ plan }: { plan: PublicPlatformPlan }) {
  if (plan.priceCents === null) {
    return (
      <Button asChild size="lg" variant="outline" className="w-full">
        <a href={`mailto:${SALES_EMAIL}`}>{m.pricing.contactSales}</a>
      </Button>
    );
  }
  return (
    <Button asChild size="lg" variant={plan.popular ? 'default' : 'outline'} className="w-full">
      <Link to={`/auth?${new URLSearchParams({ tab: 'cadastrar', [PLAN_PARAM]: plan.id }).toString()}`}>{m.startNow}</Link>
    </Button>
  );
}
