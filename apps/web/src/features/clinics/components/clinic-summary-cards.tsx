import { Building2Icon, CheckCircle2Icon, ClockIcon, PauseCircleIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { useClinicSummary } from '../api/get-clinic-summary';

/** The four counts above the clinic table (specification §2), counted by the server. */
export function ClinicSummaryCards() {
  const { data, error } = useClinicSummary();
  return (
    <StatCardGrid error={error} className="sm:grid-cols-2 lg:grid-cols-4">
      <StatCard title="Total de Clínicas" icon={Building2Icon} value={data?.total} />
      <StatCard title="Ativas" icon={CheckCircle2Icon} value={data?.active} hint={data ? `${data.activePercent}% do total` : undefined} />
      <StatCard title="Em Trial" icon={ClockIcon} value={data?.trial} />
      <StatCard title="Suspensas" icon={PauseCircleIcon} value={data?.suspended} />
    </StatCardGrid>
  );
}
