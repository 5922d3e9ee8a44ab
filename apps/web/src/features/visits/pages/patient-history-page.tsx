import type { PatientSavings } from '@carteirinha/shared/contracts/patient-visits';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PercentIcon, PiggyBankIcon, StethoscopeIcon } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ChartCard } from '@/components/charts/chart-card';
import type { ChartPoint, ChartSeries } from '@/components/charts/chart-types';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { rowsPlaceholder } from '@/components/ui/data-table';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { usePatientHistory, usePatientSavings } from '../api/get-patient-history';
import { PatientHistoryTable } from '../components/patient-history-table';
import { HISTORY_PERIODS, historyPeriodDays, isHistoryPeriod, monthLabel, type HistoryPeriod } from '../lib/history-period';

const h = messages.patientHistory;
const PAGE_SIZE = 10;

const SERIES: readonly ChartSeries[] = [
  { key: 'savedCents', name: h.seriesSaved, color: 'var(--primary)' },
  { key: 'paidForPlanCents', name: h.seriesPaid, color: 'var(--chart-2)' },
];

function monthPoints(months: PatientSavings['months']): ChartPoint[] {
  return months.map((month) => ({ label: monthLabel(month.month), values: { savedCents: month.savedCents, paidForPlanCents: month.paidForPlanCents } }));
}

/** "você economizou R$ X e pagou R$ Y" (issue 27), and whether the card paid for itself in the period. */
function SavedAndPaid({ savings }: { savings: PatientSavings }) {
  const difference = savings.savedCents - savings.paidForPlanCents;
  return (
    <Card>
      <CardContent className="space-y-1" data-testid="saved-and-paid">
        <p className="font-medium">{formatMessage(h.savedAndPaid, { saved: formatMoney(savings.savedCents), paid: formatMoney(savings.paidForPlanCents) })}</p>
        {savings.paidForPlanCents > 0 ? (
          <p className="text-sm text-muted-foreground">
            {difference >= 0 ? formatMessage(h.paidOff, { amount: formatMoney(difference) }) : formatMessage(h.notYetPaidOff, { amount: formatMoney(-difference) })}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The period, kept in the address (?periodo=) so a reload or a shared link shows the same history. */
function usePeriodChoice(): [HistoryPeriod, (period: HistoryPeriod) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const chosen = searchParams.get('periodo');
  const period = isHistoryPeriod(chosen) ? chosen : 'all';
  const choose = (next: HistoryPeriod) => setSearchParams(next === 'all' ? {} : { periodo: next }, { replace: true });
  return [period, choose];
}

/** Histórico: what the card saved the patient (and their dependents), set against what the plan cost, and each visit. */
export function PatientHistoryPage() {
  const selectId = useId();
  const [period, setPeriod] = usePeriodChoice();
  // The days a choice covers are fixed when it is made: a page left open past midnight keeps asking the same period.
  const current = useMemo(() => historyPeriodDays(period, new Date()), [period]);
  const [page, setPage] = useState({ period, page: 1 });
  const pageNumber = page.period === period ? page.page : 1;

  const savings = usePatientSavings(current);
  const history = usePatientHistory({ ...current, page: pageNumber, pageSize: PAGE_SIZE });
  const summary = savings.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title={h.title}
        description={h.description}
        actions={
          <div className="grid w-full gap-2 sm:w-56">
            <Label htmlFor={selectId}>{h.period}</Label>
            <NativeSelect id={selectId} value={period} onChange={(event) => setPeriod(isHistoryPeriod(event.target.value) ? event.target.value : 'all')}>
              {HISTORY_PERIODS.map((choice) => (
                <option key={choice} value={choice}>
                  {h.periods[choice]}
                </option>
              ))}
            </NativeSelect>
          </div>
        }
      />
      <StatCardGrid error={savings.error} onRetry={() => void savings.refetch()} retrying={savings.isFetching} className="grid-cols-2 lg:grid-cols-3">
        <StatCard title={h.totalSaved} value={summary ? formatMoney(summary.savedCents) : undefined} description={h.totalSavedHelp} icon={PiggyBankIcon} />
        <StatCard title={h.visits} value={summary?.visits.toLocaleString('pt-BR')} description={h.visitsHelp} icon={StethoscopeIcon} />
        <StatCard title={h.averageSaving} value={summary ? `${summary.averageSavingPercent}%` : undefined} description={h.averageSavingHelp} icon={PercentIcon} />
      </StatCardGrid>
      {/* Nothing saved and nothing paid (a new patient, an empty period): no sentence of zeros to compare. */}
      {summary && (summary.savedCents > 0 || summary.paidForPlanCents > 0) ? <SavedAndPaid savings={summary} /> : null}
      {summary && summary.months.length > 0 ? (
        <ChartCard
          title={h.chartTitle}
          description={h.chartDescription}
          pointHeader={h.chartMonth}
          kind="bar"
          points={monthPoints(summary.months)}
          series={SERIES}
          formatValue={formatMoney}
        />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>{h.tableTitle}</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="space-y-4">
          <PatientHistoryTable
            rows={history.data?.items}
            busy={history.isFetching}
            placeholder={rowsPlaceholder({ rows: history.data?.items, error: history.error, onRetry: () => void history.refetch(), retrying: history.isFetching, emptyText: h.empty })}
          />
          <Pagination page={pageNumber} onPageChange={(next) => setPage({ period, page: next })} shown={history.data} stale={history.isPlaceholderData} />
        </CardContent>
      </Card>
    </div>
  );
}
