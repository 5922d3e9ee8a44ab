import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { ChartCard } from '@/components/charts/chart-card';
import type { ChartSeries } from '@/components/charts/chart-types';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { useMrrHistory } from '../api/get-mrr-history';
import { monthLabel } from '../lib/chart-labels';

const d = messages.clinicDashboard;

const MRR_SERIES: readonly ChartSeries[] = [{ key: 'mrrCents', name: d.seriesMrr, color: 'var(--primary)' }];

/** The admin Dashboard's MRR over the last 12 months (ADR 005 keeps the history), drawn by the same lazy chart. */
export function MrrHistoryChart() {
  const history = useMrrHistory();
  if (history.error) return <ErrorState {...retryPropsOf(history)} />;
  if (!history.data) return <Spinner className="mx-auto" />;
  return (
    <ChartCard
      title={d.mrrHistoryTitle}
      description={d.mrrHistoryDescription}
      pointHeader={d.month}
      kind="line"
      points={history.data.months.map((month) => ({ label: monthLabel(month.month), values: { mrrCents: month.mrrCents } }))}
      series={MRR_SERIES}
      formatValue={formatMoney}
    />
  );
}
