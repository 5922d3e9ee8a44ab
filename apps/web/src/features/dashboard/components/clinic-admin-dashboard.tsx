import { messages } from '@carteirinha/shared/messages';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { SiteAddress } from '@/features/clinics/components/site-address';
import { useClinicCharts, useClinicDashboard, useFirstSteps } from '../api/get-clinic-dashboard';
import { ClinicKpiCards } from './clinic-kpi-cards';
import { AwaitingApprovalCard, FirstStepsCard } from './first-steps-card';
import { VisitSummaryList } from './visit-summary-list';
import { Suspense } from 'react';
import { lazyComponent } from '@/lib/lazy-component';
import { Spinner } from '@/components/ui/spinner';

// Below the fold: the charts' cards and tables arrive after the figures, the charting library after them.
const ClinicCharts = lazyComponent(() => import('./clinic-charts'), (m) => m.ClinicCharts);

const d = messages.clinicDashboard;
const f = messages.firstSteps;

/** The first steps and the site's address: the new owner's way from sign-up to the first validated card. */
function GettingStarted() {
  const firstSteps = useFirstSteps();
  const { data } = firstSteps;
  if (firstSteps.error) return <ErrorState {...retryPropsOf(firstSteps)} />;
  if (!data) return null;
  return (
    <>
      {data.awaitingApproval ? <AwaitingApprovalCard /> : null}
      <div className="grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="lg:col-span-2 empty:hidden">
          <FirstStepsCard steps={data.steps} />
        </div>
        <Card role="region" aria-labelledby="site-address-title">
          <CardHeader>
            <CardTitle asChild className="text-lg">
              <h2 id="site-address-title">{f.siteTitle}</h2>
            </CardTitle>
            <CardDescription>{f.siteDescription}</CardDescription>
          </CardHeader>
          <CardContent>
            <SiteAddress siteUrl={data.siteUrl} clinicName={data.clinicName} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}

/** The clinic admin's Dashboard: first steps, the four KPIs, the recent visits and the last 12 weeks in charts. */
export function ClinicAdminDashboard() {
  const dashboard = useClinicDashboard();
  const charts = useClinicCharts();
  return (
    <>
      <GettingStarted />
      <ClinicKpiCards kpis={dashboard.data?.kpis} {...retryPropsOf(dashboard)} />
      {dashboard.error ? null : (
        <VisitSummaryList
          title={d.recentVisits}
          emptyText={d.recentVisitsEmpty}
          visits={dashboard.data?.recentVisits}
          {...retryPropsOf(dashboard)}
          showAmounts
          testId="recent-visits"
        />
      )}
      <Suspense fallback={<Spinner className="mx-auto" />}>
        <ClinicCharts charts={charts.data} {...retryPropsOf(charts)} />
      </Suspense>
    </>
  );
}
