import { PLAN_PARAM } from '@carteirinha/shared/constants';
import type { ClinicContact } from '@carteirinha/shared/contracts/clinics';
import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { ClinicBranding } from '@carteirinha/shared/contracts/tenant';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ArrowRightIcon, CheckIcon, PercentIcon, UsersIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { usePortalEntry } from '@/app/portal-entry';
import { Button } from '@/components/ui/button';
import { LogoMark } from '@/components/ui/logo-mark';
import { RETURN_PARAM } from '@/lib/return-path';
import { cn } from '@/lib/utils';
import { PRICE_TABLE_PATH } from '@/features/services/lib/price-table-path';
import type { ClinicTenant } from '../api/get-tenant';
import { ClinicContactSection } from '../components/clinic-contact-section';
import { featuresBesidesDiscounts } from '@/lib/plan-features';

const SIGN_UP_PATH = '/auth?tab=cadastrar';

/**
 * 'Assinar Agora' on a plan: sign up (or in), then straight to that plan's checkout. A visitor already signed in as a
 * patient goes there at once (/auth sends a signed-in user to `next`).
 */
function subscribePathFor(planId: string): string {
  const checkout = `/paciente/assinatura?${new URLSearchParams({ [PLAN_PARAM]: planId }).toString()}`;
  return `/auth?${new URLSearchParams({ tab: 'cadastrar', [RETURN_PARAM]: checkout }).toString()}`;
}

function ClinicHeader({ clinic }: { clinic: ClinicBranding }) {
  const entry = usePortalEntry(messages.landing.signIn);
  return (
    <header className="sticky top-0 z-50 border-b bg-background/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link
          to="/"
          className="inline-flex min-w-0 items-center gap-2 rounded-md text-base font-bold tracking-tight outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-lg"
        >
          <LogoMark src={clinic.logoUrl} alt="" />
          <span data-testid="clinic-name" className="truncate">
            {clinic.name}
          </span>
        </Link>
        <div className="flex shrink-0 items-center gap-1 sm:gap-2">
          {/* A signed-in visitor has an account already: the way to it replaces both 'Entrar' and 'Cadastrar'. */}
          <Button asChild variant={entry.signedIn ? 'default' : 'ghost'} size="sm">
            <Link to={entry.to}>{entry.label}</Link>
          </Button>
          {entry.signedIn ? null : (
            <Button asChild size="sm">
              <Link to={SIGN_UP_PATH}>Cadastrar</Link>
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}

function ClinicHero({ clinic, hasPlans }: { clinic: ClinicBranding; hasPlans: boolean }) {
  const entry = usePortalEntry(messages.landing.signIn);
  const place = [clinic.city, clinic.state].filter(Boolean).join(' / ');
  return (
    <section aria-labelledby="clinic-hero-title" className="border-b bg-accent">
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-16 text-center sm:px-6 md:py-24">
        <LogoMark src={clinic.logoUrl} alt="" className="size-16 rounded-2xl shadow-sm" />
        <p className="mt-6 text-sm font-semibold tracking-wide text-muted-foreground uppercase">{messages.tenancy.clinicHeroEyebrow}</p>
        <h1 id="clinic-hero-title" className="mt-2 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl">
          {clinic.name}
        </h1>
        {place ? <p className="mt-2 text-muted-foreground">{place}</p> : null}
        <p className="mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">{messages.tenancy.clinicHeroText}</p>
        <div className="mt-8 flex flex-col items-stretch gap-3 sm:flex-row sm:items-center">
          {hasPlans ? (
            <Button asChild size="lg">
              <a href="#planos">
                {messages.tenancy.seePlans}
                <ArrowRightIcon aria-hidden="true" />
              </a>
            </Button>
          ) : null}
          <Button asChild size="lg" variant="outline">
            <Link to={entry.to}>{entry.label}</Link>
          </Button>
          {/* A plain link (ADR 019: no script here): the table is a page of its own, open to anyone. */}
          <Button asChild size="lg" variant="ghost">
            <Link to={PRICE_TABLE_PATH}>{messages.priceTable.title}</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

const DISCOUNT_SERVICES = ['consultas', 'exames', 'procedimentos'] as const;
const DISCOUNT_LABELS: Record<(typeof DISCOUNT_SERVICES)[number], string> = {
  consultas: 'Consultas',
  exames: 'Exames',
  procedimentos: 'Procedimentos',
};

/** "Consultas: 30%" for each service the plan discounts; a 0 % discount is no benefit, so it is left out. */
function discountLinesOf(discounts: SubscriptionPlan['discounts']): string[] {
  return DISCOUNT_SERVICES.filter((service) => discounts[service] > 0).map((service) =>
    formatMessage(messages.tenancy.discountLine, { service: DISCOUNT_LABELS[service], percent: discounts[service] }),
  );
}

function ClinicPlanCard({ plan }: { plan: SubscriptionPlan }) {
  const titleId = useId();
  const discounts = discountLinesOf(plan.discounts);
  // The discounts have their own box: a feature line that only repeats one is not listed a second time.
  const features = featuresBesidesDiscounts(plan.features, plan.discounts);
  return (
    <li data-testid="clinic-plan" className="flex flex-col rounded-2xl border bg-card p-8 text-card-foreground shadow-xs">
      <h3 id={titleId} className="text-xl font-semibold">
        {plan.name}
      </h3>
      {plan.description ? <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p> : null}
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight">{formatMoney(plan.priceCents)}</span>
        <span className="text-sm font-medium text-muted-foreground">
          {plan.billingCycle === 'monthly' ? messages.common.perMonth : messages.tenancy.perYear}
        </span>
      </p>
      {plan.maxMembers > 1 ? (
        <p className="mt-3 inline-flex items-center gap-2 text-sm font-medium">
          <UsersIcon aria-hidden="true" className="size-4" />
          {formatMessage(messages.tenancy.upToMembers, { count: plan.maxMembers })}
        </p>
      ) : null}
      {features.length > 0 ? (
        <ul className="mt-6 space-y-3 text-sm">
          {features.map((feature) => (
            <li key={feature} className="flex items-start gap-3">
              <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary-text" aria-hidden="true" />
              {feature}
            </li>
          ))}
        </ul>
      ) : null}
      {discounts.length > 0 ? (
        <div className="mt-6 rounded-lg bg-muted p-4">
          <p className="flex items-center gap-2 text-sm font-semibold">
            <PercentIcon aria-hidden="true" className="size-4" />
            {messages.tenancy.discountsTitle}
          </p>
          <ul className="mt-2 space-y-1 text-sm">
            {discounts.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mt-8 pt-2 lg:mt-auto lg:pt-8">
        <Button asChild size="lg" className="w-full">
          <Link to={subscribePathFor(plan.id)} aria-describedby={titleId}>
            {messages.tenancy.subscribeNow}
          </Link>
        </Button>
      </div>
    </li>
  );
}

/**
 * The plan grid's columns on a wide screen by how many plans there are: two plans take two columns, centred, rather
 * than leaving an empty third one beside them. The classes are written out whole for Tailwind to find them.
 */
const PLAN_GRID_COLUMNS: Record<number, string> = {
  0: '',
  1: '',
  2: 'lg:max-w-4xl lg:grid-cols-2',
  3: 'lg:max-w-none lg:grid-cols-3',
};

function ClinicPlans({ plans }: { plans: readonly SubscriptionPlan[] }) {
  return (
    <section id="planos" aria-labelledby="clinic-plans-title" className="scroll-mt-20 py-20 md:py-24">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="clinic-plans-title" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {messages.tenancy.plansTitle}
          </h2>
          <p className="mt-4 text-lg text-pretty text-muted-foreground">{messages.tenancy.plansDescription}</p>
        </div>
        {plans.length > 0 ? (
          <ul className={cn('mx-auto mt-14 grid max-w-md gap-8 lg:items-stretch', PLAN_GRID_COLUMNS[Math.min(plans.length, 3)])}>
            {plans.map((plan) => (
              <ClinicPlanCard key={plan.id} plan={plan} />
            ))}
          </ul>
        ) : (
          <p className="mt-10 text-center text-muted-foreground">{messages.tenancy.noPlans}</p>
        )}
      </div>
    </section>
  );
}

/**
 * "/" on a clinic's host (DESIGN.md §2 "White-label"): the clinic's name, logo and colour, and its active patient
 * plans, each leading to sign-up — which on this host makes the visitor a patient of this clinic.
 */
export function ClinicLandingPage({ tenant, contact = null }: { tenant: ClinicTenant; contact?: ClinicContact | null }) {
  const { clinic, plans } = tenant;
  return (
    <div className="flex min-h-svh flex-col">
      <ClinicHeader clinic={clinic} />
      <main className="flex-1">
        <ClinicHero clinic={clinic} hasPlans={plans.length > 0} />
        <ClinicPlans plans={plans} />
        {contact ? <ClinicContactSection contact={contact} /> : null}
      </main>
      <footer className="border-t bg-muted">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-2 px-4 py-8 text-center text-sm text-muted-foreground sm:px-6 md:flex-row md:justify-between md:text-left">
          <p className="font-medium text-foreground">{clinic.name}</p>
          <p>{messages.tenancy.poweredBy}</p>
        </div>
      </footer>
    </div>
  );
}
