import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import { CalendarCheckIcon, CircleDollarSignIcon, HourglassIcon, InfoIcon, ListIcon, WalletIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { rowsPlaceholder } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { StatCard, StatCardGrid } from '@/components/ui/stat-card';
import { useClinicPayouts } from '../api/payouts';
import { PayoutDetailDialog } from '../components/payout-detail-dialog';
import { PayoutsTable, periodLabel } from '../components/payouts-table';

const m = messages.payouts;

/**
 * Financeiro: this month's money so far and the payouts month by month — what the patients paid for the programme,
 * the platform's fee, what reaches the clinic, and when it was paid.
 */
export function ClinicFinancePage() {
  const payouts = useClinicPayouts();
  const summary = payouts.data?.summary;
  const feePercent = summary?.feePercent ?? PLATFORM_FEE_PERCENT;
  const [open, setOpen] = useState<{ id: string; period: string } | null>(null);
  return (
    <div className="space-y-6">
      <PageHeader title={m.title} description={m.description} />
      <StatCardGrid error={payouts.error} onRetry={() => void payouts.refetch()} retrying={payouts.isFetching} className="grid-cols-2 lg:grid-cols-4">
        <StatCard title={m.monthGross} value={summary ? formatMoney(summary.monthGrossCents) : undefined} description={m.monthGrossHelp} icon={CircleDollarSignIcon} />
        <StatCard title={m.monthAttendances} value={summary?.monthAttendances} description={m.monthAttendancesHelp} icon={CalendarCheckIcon} />
        <StatCard title={m.pendingNet} value={summary ? formatMoney(summary.pendingNetCents) : undefined} description={m.pendingNetHelp} icon={HourglassIcon} />
        <StatCard title={m.paidNet} value={summary ? formatMoney(summary.paidNetCents) : undefined} description={m.paidNetHelp} icon={WalletIcon} />
      </StatCardGrid>
      {summary?.feeSplitAtProvider ? (
        <p role="note" className="flex items-start gap-2 rounded-lg border bg-muted/50 p-3 text-sm">
          <InfoIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {formatMessage(m.splitNotice, { percent: feePercent })}
        </p>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{m.tableTitle}</CardTitle>
          <CardDescription>{m.tableDescription}</CardDescription>
        </CardHeader>
        <CardContent>
          <PayoutsTable
            rows={payouts.data?.items}
            caption={m.tableTitle}
            placeholder={rowsPlaceholder({ rows: payouts.data?.items, error: payouts.error, onRetry: () => void payouts.refetch(), retrying: payouts.isFetching, emptyText: m.empty })}
            busy={payouts.isFetching}
            feePercent={feePercent}
            actions={(payout, layout) => (
              <Button
                variant={layout === 'card' ? 'outline' : 'ghost'}
                size="sm"
                aria-label={`${m.details}: ${periodLabel(payout.period)}`}
                onClick={() => setOpen({ id: payout.id, period: payout.period })}
              >
                <ListIcon aria-hidden="true" />
                {m.details}
              </Button>
            )}
          />
        </CardContent>
      </Card>
      <PayoutDetailDialog payout={open} onClose={() => setOpen(null)} />
    </div>
  );
}
