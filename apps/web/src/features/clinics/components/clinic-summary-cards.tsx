import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Building2Icon, CheckCircle2Icon, ClockIcon, PauseCircleIcon } from 'lucide-react';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { retryPropsOf } from '@/components/ui/error-state';
import { useClinicSummary } from '../api/get-clinic-summary';

const t = messages.adminClinics.summary;

/** The four counts above the clinic table (specification §2), counted by the server. */
export function ClinicSummaryCards() {
  const summary = useClinicSummary();
  const { data } = summary;
  return (
    <StatCardGrid {...retryPropsOf(summary)} className="grid-cols-2 lg:grid-cols-4">
      <StatCard title={t.total} icon={Building2Icon} value={data?.total} />
      <StatCard
        title={t.active}
        icon={CheckCircle2Icon}
        value={data?.active}
        hint={data ? formatMessage(t.activePercent, { percent: data.activePercent }) : undefined}
      />
      <StatCard title={t.trial} icon={ClockIcon} value={data?.trial} />
      <StatCard title={t.suspended} icon={PauseCircleIcon} value={data?.suspended} />
    </StatCardGrid>
  );
}
