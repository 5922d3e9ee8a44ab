import { CreditCardIcon, PackageIcon, TrendingUpIcon } from 'lucide-react';
import { formatMoney } from '@carteirinha/shared/format';
import { StatCard } from '@/components/ui/stat-card';
import { errorMessage } from '@/lib/error-message';
import { usePlanSummary } from '../api/get-plan-summary';
import { mrrChangeLabel } from '../lib/plan-labels';

/** The three cards of /admin/planos, computed by the server from the clinics on each plan. */
export function PlanSummaryCards() {
  const { data, error } = usePlanSummary();
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
    );
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <StatCard title="Total de Planos" icon={PackageIcon} value={data?.planCount} />
      <StatCard title="Assinaturas Ativas" icon={CreditCardIcon} value={data?.activeSubscriptions} />
      <StatCard
        title="MRR"
        icon={TrendingUpIcon}
        value={data ? formatMoney(data.mrrCents) : undefined}
        hint={data ? mrrChangeLabel(data.mrrChangePercent) : undefined}
      />
    </div>
  );
}
