import { messages } from '@carteirinha/shared/messages';
import { BuildingIcon, PackagePlusIcon, UserCheckIcon, UserPlusIcon } from 'lucide-react';
import { Suspense, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { retryPropsOf } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { RecentClinicsList } from '@/features/clinics/components/recent-clinics-list';
import { usePlans } from '@/features/plans/api/list-plans';
import { APPROVE_REGISTRATIONS_PARAM } from '@/lib/admin-links';
import { useAdminDashboard } from '../api/get-admin-dashboard';
import { DashboardAlerts } from '../components/dashboard-alerts';
import { DashboardKpiCards } from '../components/dashboard-kpi-cards';
import { lazyComponent } from '@/lib/lazy-component';

// The quick actions' forms load when their dialog first opens.
const ClinicFormDialog = lazyComponent(() => import('@/features/clinics/components/clinic-form-dialog'), (m) => m.ClinicFormDialog);
const PlanFormDialog = lazyComponent(() => import('@/features/plans/components/plan-form-dialog'), (m) => m.PlanFormDialog);
// Below the figures: the chart's card arrives after them, the charting library after it.
const MrrHistoryChart = lazyComponent(() => import('../components/mrr-history-chart'), (m) => m.MrrHistoryChart);
const ApproveRegistrationsDialog = lazyComponent(() => import('@/features/clinics/components/approve-registrations-dialog'), (m) => m.ApproveRegistrationsDialog);

const a = messages.adminClinics;

type OpenDialog = 'none' | 'clinic' | 'plan' | 'approve';

/** Where 'Novo Usuário' goes: the users page opens its 'Novo Usuário' dialog when it sees `?novo=1`. */
const NEW_USER_PATH = '/admin/usuarios?novo=1';

export function AdminDashboardPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  // An alert of a sign-up awaiting approval links here with ?aprovar=1: the dialog it names opens.
  const approvalAsked = searchParams.get(APPROVE_REGISTRATIONS_PARAM) === '1';
  const [chosenDialog, setDialog] = useState<OpenDialog>('none');
  const dialog: OpenDialog = approvalAsked ? 'approve' : chosenDialog;
  const dashboard = useAdminDashboard();
  const { data, error } = dashboard;
  const plans = usePlans();
  const onOpenChange = (open: boolean) => {
    if (open) return;
    setDialog('none');
    // Once closed, the parameter goes, so that a reload does not open the dialog again.
    if (approvalAsked) {
      setSearchParams(
        (current) => {
          current.delete(APPROVE_REGISTRATIONS_PARAM);
          return current;
        },
        { replace: true },
      );
    }
  };

  return (
    <>
      <PageHeader title={a.dashboardTitle} description={a.dashboardDescription} />

      {/* When the dashboard fails, the KPI row says why, once; the lists that would wait for it are left out. */}
      <DashboardKpiCards kpis={data?.kpis} {...retryPropsOf(dashboard)} error={error} />

      {error ? null : (
        <div className="grid gap-6 lg:grid-cols-2">
          <RecentClinicsList clinics={data?.recentClinics} />
          <DashboardAlerts alerts={data?.alerts} totals={data?.alertTotals} />
        </div>
      )}

      {error ? null : (
        <Suspense fallback={null}>
          <MrrHistoryChart />
        </Suspense>
      )}

      <Card>
        <CardHeader>
          <CardTitle asChild className="text-lg">
            <h2>{a.quickActions}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Button variant="outline" className="h-auto flex-col gap-2 py-4" onClick={() => setDialog('clinic')}>
            <BuildingIcon aria-hidden="true" className="size-5" />
            {a.newClinic}
          </Button>
          <Button asChild variant="outline" className="h-auto flex-col gap-2 py-4">
            <Link to={NEW_USER_PATH}>
              <UserPlusIcon aria-hidden="true" className="size-5" />
              {messages.userRoles.newUser}
            </Link>
          </Button>
          <Button variant="outline" className="h-auto flex-col gap-2 py-4" onClick={() => setDialog('plan')}>
            <PackagePlusIcon aria-hidden="true" className="size-5" />
            {a.createPlan}
          </Button>
          <Button variant="outline" className="h-auto flex-col gap-2 py-4" onClick={() => setDialog('approve')}>
            <UserCheckIcon aria-hidden="true" className="size-5" />
            {a.approveRegistrations}
          </Button>
        </CardContent>
      </Card>

      <LoadWhenOpen open={dialog === 'clinic'}>
        <ClinicFormDialog
          open={dialog === 'clinic'}
          onOpenChange={onOpenChange}
          clinic={null}
          plans={plans.data}
          plansError={plans.error}
          onRetryPlans={() => void plans.refetch()}
        />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog === 'plan'}>
        <PlanFormDialog open={dialog === 'plan'} onOpenChange={onOpenChange} plan={null} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog === 'approve'}>
        <ApproveRegistrationsDialog open={dialog === 'approve'} onOpenChange={onOpenChange} />
      </LoadWhenOpen>
    </>
  );
}
