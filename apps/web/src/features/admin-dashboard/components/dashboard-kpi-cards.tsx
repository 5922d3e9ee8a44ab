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
};

/** The dashboard's four KPIs (specification §2), all counted by the server. */
export function DashboardKpiCards({ kpis, error }: DashboardKpiCardsProps) {
  return (
    <StatCardGrid error={error} className="grid-cols-2 lg:grid-cols-4">
      <StatCard title={t.activeClinics} icon={Building2Icon} value={kpis?.activeClinics} />
      <StatCard title={t.totalPatients} icon={UsersIcon} value={kpis?.totalPatients} />
      <StatCard title={t.activeSubscriptions} icon={CreditCardIcon} value={kpis?.activeSubscriptions} />
      <StatCard title={t.monthlyRevenue} icon={DollarSignIcon} value={kpis ? formatMoney(kpis.monthlyRevenueCents) : undefined} />
    </StatCardGrid>
  );
}
