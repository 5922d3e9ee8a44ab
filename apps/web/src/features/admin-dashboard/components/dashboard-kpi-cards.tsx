import type { AdminDashboard } from '@carteirinha/shared/contracts/dashboard';
import { formatMoney } from '@carteirinha/shared/format';
import { Building2Icon, CreditCardIcon, DollarSignIcon, UsersIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';

/** The dashboard's four KPIs (specification §2), all counted by the server; undefined while they load. */
export function DashboardKpiCards({ kpis }: { kpis: AdminDashboard['kpis'] | undefined }) {
  return (
    <StatCardGrid className="sm:grid-cols-2 lg:grid-cols-4">
      <StatCard title="Clínicas Ativas" icon={Building2Icon} value={kpis?.activeClinics} />
      <StatCard title="Total de Pacientes" icon={UsersIcon} value={kpis?.totalPatients} />
      <StatCard title="Assinaturas Ativas" icon={CreditCardIcon} value={kpis?.activeSubscriptions} />
      <StatCard title="Receita Mensal" icon={DollarSignIcon} value={kpis ? formatMoney(kpis.monthlyRevenueCents) : undefined} />
    </StatCardGrid>
  );
}
