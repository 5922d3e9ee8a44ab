import type { ReportSummary } from '@carteirinha/shared/contracts/reports';
import { messages } from '@carteirinha/shared/messages';
import { Building2Icon, CalendarIcon, CheckCircle2Icon, ClipboardListIcon, UsersIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { StatCard } from '@/components/ui/stat-card';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { useReportSummary } from '../api/get-report-summary';
import { PeriodFilterDialog } from '../components/period-filter-dialog';
import { ReportCard } from '../components/report-card';
import { periodLabel, readPeriodFromUrl, writePeriodToUrl, type ReportPeriod } from '../lib/period';

const m = messages.reports;

/**
 * Admin 'Relatórios' (specification §2): the three reports and the platform's totals, for a period kept in the
 * address (?de=yyyy-MM-dd&ate=yyyy-MM-dd) or for all time.
 */
export function AdminReportsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const [filterOpen, setFilterOpen] = useState(false);
  const period = readPeriodFromUrl(searchParams);
  const query = useReportSummary(period);
  const { data, error, isPlaceholderData } = query;
  // While another period's figures are on screen they must not decide whether a report is empty.
  const summary = isPlaceholderData ? undefined : data;

  function applyPeriod(next: ReportPeriod | null) {
    setSearchParams((current) => writePeriodToUrl(current, next));
  }

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          <Button variant="outline" onClick={() => setFilterOpen(true)}>
            <CalendarIcon aria-hidden="true" />
            {m.filterPeriod}
          </Button>
        }
      />

      <div className="flex flex-wrap items-center gap-2 text-sm" aria-live="polite">
        {period ? (
          <>
            <p className="font-medium">{periodLabel(period)}</p>
            <Button variant="link" size="sm" className="h-auto px-0" onClick={() => applyPeriod(null)}>
              {m.clearFilter}
            </Button>
          </>
        ) : (
          <p className="text-muted-foreground">{m.allTime}</p>
        )}
      </div>

      {/* The cards and figures all wait for the summary: when it failed, they say so once, with 'Tentar novamente'. */}
      {error ? <ErrorState {...retryPropsOf(query)} /> : <ReportFigures summary={summary} period={period} />}

      <PeriodFilterDialog open={filterOpen} onOpenChange={setFilterOpen} period={period} onApply={applyPeriod} />
    </>
  );
}

/** The three report cards and 'Estatísticas Gerais'; `summary` is undefined while it loads. */
function ReportFigures({ summary, period }: { summary: ReportSummary | undefined; period: ReportPeriod | null }) {
  const statsTitleId = useId();
  return (
    <>
      <div className="grid gap-4 md:grid-cols-3">
        <ReportCard kind="clinicas" icon={Building2Icon} count={summary?.clinics} period={period} />
        <ReportCard kind="usuarios" icon={UsersIcon} count={summary?.users} period={period} />
        <ReportCard kind="planos" icon={ClipboardListIcon} count={summary?.plans} period={period} />
      </div>

      <section aria-labelledby={statsTitleId} className="grid gap-4">
        <h2 id={statsTitleId} className="text-lg font-semibold">
          {m.generalStats}
        </h2>
        <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <StatCard title={m.totalClinics} icon={Building2Icon} value={summary?.clinics} />
          <StatCard title={m.totalUsers} icon={UsersIcon} value={summary?.users} />
          <StatCard title={m.totalPlans} icon={ClipboardListIcon} value={summary?.plans} />
          <StatCard title={m.activePlans} icon={CheckCircle2Icon} value={summary?.activePlans} />
        </div>
      </section>
    </>
  );
}
