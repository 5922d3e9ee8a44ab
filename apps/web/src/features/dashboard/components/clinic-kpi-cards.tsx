import type { ClinicDashboard } from '@carteirinha/shared/contracts/dashboard';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CalendarCheckIcon, DollarSignIcon, PercentIcon, UsersIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';

const d = messages.clinicDashboard;

type ClinicKpiCardsProps = {
  /** undefined while they load. */
  kpis: ClinicDashboard['kpis'] | undefined;
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
};

/** "12,5%"; the rate is null when nobody signed up in the 30 days. */
function conversionValue(conversion: ClinicDashboard['kpis']['conversion']): string {
  if (conversion.ratePercent === null) return '—';
  return `${conversion.ratePercent.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
}

/** The clinic's four KPIs (specification §2), each counted by the server and said in one line under it. */
export function ClinicKpiCards({ kpis, error, onRetry, retrying }: ClinicKpiCardsProps) {
  const conversion = kpis?.conversion;
  // What the rate divides, with this clinic's numbers: the help text is the figure's definition, not a generic line.
  const conversionHelp = formatMessage(d.conversionRateHelp, { converted: conversion?.converted ?? '…', signUps: conversion?.signUps ?? '…' });
  return (
    <StatCardGrid error={error} onRetry={onRetry} retrying={retrying} className="grid-cols-2 lg:grid-cols-4">
      <StatCard title={d.appointmentsToday} description={d.appointmentsTodayHelp} icon={CalendarCheckIcon} value={kpis?.appointmentsToday} />
      <StatCard title={d.activePatients} description={d.activePatientsHelp} icon={UsersIcon} value={kpis?.activePatients} />
      <StatCard title={d.revenueToday} description={d.revenueTodayHelp} icon={DollarSignIcon} value={kpis ? formatMoney(kpis.revenueTodayCents) : undefined} />
      <StatCard
        title={d.conversionRate}
        description={conversionHelp}
        hint={conversion?.signUps === 0 ? d.conversionNone : undefined}
        icon={PercentIcon}
        value={conversion ? conversionValue(conversion) : undefined}
      />
    </StatCardGrid>
  );
}
