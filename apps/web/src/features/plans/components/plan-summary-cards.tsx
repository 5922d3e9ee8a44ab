import { CreditCardIcon, PackageIcon, TrendingUpIcon } from 'lucide-react';
import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { retryPropsOf } from '@/components/ui/error-state';
import { usePlanSummary } from '../api/get-plan-summary';
import { mrrChangeLabel } from '../lib/plan-labels';

/**
 * The three cards of /admin/planos, computed by the server from the clinics on each plan. MRR leaves out the plans
 * sold "sob consulta": they have no price to add.
 */
export function PlanSummaryCards() {
  const summary = usePlanSummary();
  const { data } = summary;
  return (
    <StatCardGrid {...retryPropsOf(summary)} className="sm:grid-cols-3">
      <StatCard title={messages.adminPlans.totalPlans} icon={PackageIcon} value={data?.planCount} />
      <StatCard
        title={messages.adminPlans.activeSubscriptions}
        description={messages.adminPlans.activeSubscriptionsHelp}
        icon={CreditCardIcon}
        value={data?.activeSubscriptions}
      />
      <StatCard
        title={messages.adminPlans.mrr}
        description={messages.adminPlans.mrrHelp}
        icon={TrendingUpIcon}
        value={data ? formatMoney(data.mrrCents) : undefined}
        hint={data ? mrrChangeLabel(data.mrrChangePercent) : undefined}
      />
    </StatCardGrid>
  );
}
