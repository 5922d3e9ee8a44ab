import type { ClinicCharts as ClinicChartsData } from '@carteirinha/shared/contracts/dashboard';
import { formatIsoDay, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ChartCard } from '@/components/charts/chart-card';
import type { ChartPoint, ChartSeries } from '@/components/charts/chart-types';
import { ErrorState } from '@/components/ui/error-state';
import { Spinner } from '@/components/ui/spinner';
import { shortIsoDay } from '../lib/chart-labels';

const d = messages.clinicDashboard;

const DAY_SERIES: readonly ChartSeries[] = [
  { key: 'visits', name: d.seriesVisits, color: 'var(--primary)' },
  { key: 'validations', name: d.seriesValidations, color: 'var(--chart-2)' },
];

const WEEK_SERIES: readonly ChartSeries[] = [
  { key: 'visitRevenueCents', name: d.seriesVisitRevenue, color: 'var(--primary)' },
  { key: 'subscriptionRevenueCents', name: d.seriesSubscriptionRevenue, color: 'var(--chart-2)' },
];

const count = (value: number) => value.toLocaleString('pt-BR');

function dayPoints(days: ClinicChartsData['days']): ChartPoint[] {
  return days.map((day) => ({ label: shortIsoDay(day.day), values: { visits: day.visits, validations: day.validations } }));
}

function weekPoints(weeks: ClinicChartsData['weeks']): ChartPoint[] {
  return weeks.map((week) => ({
    label: formatMessage(d.weekOf, { date: formatIsoDay(week.weekStart) }),
    values: { visitRevenueCents: week.visitRevenueCents, subscriptionRevenueCents: week.subscriptionRevenueCents },
  }));
}

type ClinicChartsProps = { charts: ClinicChartsData | undefined; error: unknown; onRetry: () => void; retrying?: boolean };

/** 'Últimas 12 semanas': visits and validations per day, and the revenue of each week (visits and subscriptions). */
export function ClinicCharts({ charts, error, onRetry, retrying }: ClinicChartsProps) {
  return (
    <section aria-labelledby="clinic-charts-title" className="grid gap-4">
      <h2 id="clinic-charts-title" className="text-lg font-semibold">
        {d.chartsTitle}
      </h2>
      {error ? (
        <ErrorState error={error} onRetry={onRetry} retrying={retrying} />
      ) : charts === undefined ? (
        <Spinner className="mx-auto" />
      ) : (
        <div className="grid gap-6 xl:grid-cols-2">
          <ChartCard
            title={d.chartVisits}
            description={d.chartVisitsDescription}
            pointHeader={d.day}
            kind="line"
            points={dayPoints(charts.days)}
            series={DAY_SERIES}
            formatValue={count}
          />
          <ChartCard
            title={d.chartRevenue}
            description={d.chartRevenueDescription}
            pointHeader={d.week}
            kind="stacked-bar"
            points={weekPoints(charts.weeks)}
            series={WEEK_SERIES}
            formatValue={formatMoney}
          />
        </div>
      )}
    </section>
  );
}
