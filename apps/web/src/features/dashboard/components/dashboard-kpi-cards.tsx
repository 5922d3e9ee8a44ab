import type { AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { Building2Icon, CreditCardIcon, DollarSignIcon, UsersIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';

const t = messages.adminClinics.kpis;

type DashboardKpiCardsProps = {
  /** undefined while they load. */
  kpis: AdminDashboard['kpis'] | undefined;
  /** Why the dashboard could not be loaded: said in place of the cards, which would otherwise stay busy forever. */
  error: Error | null;
  /** Asks for the dashboard again ('Tentar novamente'). */
  onRetry: () => void;
  retrying?: boolean;
};

/**
 * The dashboard's four KPIs (specification §2), all counted by the server, each named for what it counts and said in
 * one line under it: patients' subscriptions are not clinics' plans, and the MRR is the platform's, the same figure
 * as on /admin/planos.
 */
export function DashboardKpiCards({ kpis, error, onRetry, retrying }: DashboardKpiCardsProps) {
  return (
    <StatCardGrid error={error} onRetry={onRetry} retrying={retrying} className="grid-cols-2 lg:grid-cols-4">
      <StatCard title={t.activeClinics} description={t.activeClinicsHelp} icon={Building2Icon} value={kpis?.activeClinics} />
      <StatCard title={t.totalPatients} description={t.totalPatientsHelp} icon={UsersIcon} value={kpis?.totalPatients} />
      <StatCard title={t.activeSubscriptions} description={t.activeSubscriptionsHelp} icon={CreditCardIcon} value={kpis?.activeSubscriptions} />
      <StatCard
        title={t.monthlyRevenue}
        description={t.monthlyRevenueHelp}
        icon={DollarSignIcon}
        value={kpis ? formatMoney(kpis.monthlyRevenueCents) : undefined}
      />
    </StatCardGrid>
  );
}
