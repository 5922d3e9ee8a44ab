import type { PriceHistoryEntry, Service } from '@carteirinha/shared/contracts/services';
import { formatDateTime, formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { usePriceHistory } from '../api/list-services';

const m = messages.services;
const c = m.historyColumns;

function discountText(entry: PriceHistoryEntry): string {
  return entry.planId === null || entry.discountPercent === null ? '-' : `${entry.discountPercent}%`;
}

const COLUMNS: DataColumn<PriceHistoryEntry>[] = [
  {
    id: 'from',
    header: c.from,
    cell: (entry) => formatDateTime(entry.validFrom),
    // A card's title has no label of its own.
    cardCell: (entry) => `${c.from} ${formatDateTime(entry.validFrom)}`,
    className: 'whitespace-nowrap tabular-nums',
  },
  { id: 'to', header: c.to, cell: (entry) => (entry.validTo ? formatDateTime(entry.validTo) : m.historyCurrent), className: 'whitespace-nowrap tabular-nums' },
  { id: 'plan', header: c.plan, cell: (entry) => entry.planName ?? m.fullPriceRow },
  { id: 'full', header: c.full, cell: (entry) => formatMoney(entry.fullPriceCents), className: 'whitespace-nowrap tabular-nums' },
  { id: 'discount', header: c.discount, cell: discountText, className: 'tabular-nums' },
  { id: 'card', header: c.card, cell: (entry) => (entry.cardPriceCents === null ? '-' : formatMoney(entry.cardPriceCents)), className: 'whitespace-nowrap tabular-nums' },
];

/** Below this width of the dialog's list each stretch of price is a card. */
const CARDS_BELOW_PX = 600;

/**
 * 'Histórico de preços' of a service: each stretch of its full price and of its card price under each plan, with the
 * dates it held — what the card price was on any given day.
 */
export function PriceHistoryDialog({ service, onClose }: { service: Service | null; onClose: () => void }) {
  const history = usePriceHistory(service?.id ?? null);
  return (
    <Dialog open={service !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-4xl">
        <DialogHeader>
          <DialogTitle>{formatMessage(m.historyTitle, { name: service?.name ?? '' })}</DialogTitle>
          <DialogDescription>{m.historyDescription}</DialogDescription>
        </DialogHeader>
        <div className="max-h-[60svh] overflow-y-auto">
          <DataTable
            rows={history.data}
            rowKey={(entry) => `${entry.planId ?? 'full'}-${entry.validFrom}`}
            columns={COLUMNS}
            titleColumn="from"
            caption={m.history}
            placeholder={rowsPlaceholder({ rows: history.data, error: history.error, onRetry: () => void history.refetch(), retrying: history.isFetching, emptyText: m.historyEmpty })}
            cardsBelow={CARDS_BELOW_PX}
            busy={history.isFetching}
          />
        </div>
      </DialogContent>
    </Dialog>
  );
}
