import { formatPlanPrice, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { messages } from '@carteirinha/shared/messages';
import { CheckIcon, MinusIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { planLimitLabel, slaLabel, supportLabel } from '../lib/plan-labels';

const p = messages.adminPlans;

function Included({ included }: { included: boolean }) {
  return included ? (
    <>
      <CheckIcon aria-hidden="true" className="mx-auto size-4 text-primary" />
      <span className="sr-only">{messages.common.yes}</span>
    </>
  ) : (
    <>
      <MinusIcon aria-hidden="true" className="mx-auto size-4 text-muted-foreground" />
      <span className="sr-only">{messages.common.no}</span>
    </>
  );
}

/** One row of specification §9's comparison: its label, and what each plan's data says. */
type ComparisonRow = { label: string; value: (plan: PlatformPlanRecord) => ReactNode };

const ROWS: readonly ComparisonRow[] = [
  { label: p.comparisonPrice, value: (plan) => formatPlanPrice(plan.priceCents) },
  { label: p.comparisonPatients, value: (plan) => planLimitLabel(plan.maxPatients) },
  { label: p.comparisonClinics, value: (plan) => planLimitLabel(plan.maxClinics) },
  { label: p.customDomain, value: (plan) => <Included included={plan.customDomain} /> },
  { label: p.fullWhitelabel, value: (plan) => <Included included={plan.fullWhitelabel} /> },
  { label: p.mobileApp, value: (plan) => <Included included={plan.mobileApp} /> },
  { label: p.advancedReports, value: (plan) => <Included included={plan.advancedReports} /> },
  { label: p.support, value: (plan) => supportLabel(plan) },
  { label: p.comparisonSla, value: (plan) => slaLabel(plan.slaUptimePercent) },
];

/** Wide screens: one column per plan, one row per item of §9. */
function ComparisonGrid({ plans }: { plans: readonly PlatformPlanRecord[] }) {
  return (
    <Table>
      <TableCaption className="sr-only">{p.comparisonCaption}</TableCaption>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          <TableHead scope="col">{p.comparisonFeature}</TableHead>
          {plans.map((plan) => (
            <TableHead key={plan.id} scope="col" className="text-center whitespace-normal">
              {plan.name}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {ROWS.map((row) => (
          <TableRow key={row.label}>
            <TableHead scope="row" className="font-normal text-foreground">
              {row.label}
            </TableHead>
            {plans.map((plan) => (
              <TableCell key={plan.id} className="text-center tabular-nums">
                {row.value(plan)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** Phones: the same rows, one block per plan, so no plan's name or column is cut off the screen. */
function ComparisonList({ plans }: { plans: readonly PlatformPlanRecord[] }) {
  return (
    <div className="grid gap-4">
      {plans.map((plan) => (
        <section key={plan.id} aria-label={plan.name} className="rounded-lg border p-4">
          <h3 className="mb-3 font-semibold">{plan.name}</h3>
          <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-sm">
            {ROWS.map((row) => (
              <div key={row.label} className="contents">
                <dt className="text-muted-foreground">{row.label}</dt>
                <dd className="text-right tabular-nums [&_svg]:mr-0 [&_svg]:ml-auto">{row.value(plan)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

/** Specification §9's comparison table, built from what each plan includes (not from its free-text feature list). */
export function PlanComparisonTable({ plans }: { plans: readonly PlatformPlanRecord[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-lg">
          <h2>{p.comparisonTitle}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <div className="hidden md:block">
          <ComparisonGrid plans={plans} />
        </div>
        <div className="md:hidden">
          <ComparisonList plans={plans} />
        </div>
      </CardContent>
    </Card>
  );
}
