import { SERVICE_CATEGORY_LABELS, type Service } from '@carteirinha/shared/contracts/services';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { HistoryIcon, PencilIcon, RotateCcwIcon, Trash2Icon, type LucideIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { DataTable, rowsPlaceholder, type DataColumn } from '@/components/ui/data-table';

const m = messages.services;
const c = m.columns;

/** Below this width of the list's own container the seven columns have no room, and each service is a card. */
const CARDS_BELOW_PX = 900;

export type ServiceActions = {
  onEdit: (service: Service) => void;
  onHistory: (service: Service) => void;
  onDelete: (service: Service) => void;
  onRestore: (service: Service) => void;
};

function discountText(service: Service): string {
  return service.discountPercent === null ? m.planDiscount : formatMessage(m.ownDiscount, { percent: service.discountPercent });
}

/** The card price under each plan on sale, one line each ('Plano Individual: R$ 105,00'). */
function CardPrices({ service }: { service: Service }) {
  if (service.cardPrices.length === 0) return <span className="text-muted-foreground">{m.noPlanOnSale}</span>;
  return (
    <ul className="grid gap-0.5">
      {service.cardPrices.map((price) => (
        <li key={price.planId} className="whitespace-nowrap">
          {formatMessage(m.cardPriceOf, { plan: price.planName, price: formatMoney(price.cardPriceCents) })}
        </li>
      ))}
    </ul>
  );
}

function StatusBadge({ service }: { service: Service }) {
  return <Badge variant={service.isActive ? 'default' : 'secondary'}>{service.isActive ? m.active : m.archived}</Badge>;
}

type Action = { label: string; icon: LucideIcon; run: () => void; destructive?: boolean };

function actionsOf(service: Service, actions: ServiceActions): Action[] {
  const history: Action = { label: m.history, icon: HistoryIcon, run: () => actions.onHistory(service) };
  // An archived service is off the price list: it can be put back, and its history read.
  if (!service.isActive) return [{ label: m.restore, icon: RotateCcwIcon, run: () => actions.onRestore(service) }, history];
  return [
    { label: m.edit, icon: PencilIcon, run: () => actions.onEdit(service) },
    history,
    { label: m.delete, icon: Trash2Icon, run: () => actions.onDelete(service), destructive: true },
  ];
}

/** In the table: icon buttons named for the action and the service. */
function RowIconButtons({ service, actions }: { service: Service; actions: ServiceActions }) {
  return (
    <div className="flex justify-end gap-1">
      {actionsOf(service, actions).map((action) => (
        <Button
          key={action.label}
          variant="ghost"
          size="icon"
          className={action.destructive ? 'size-8 text-destructive hover:text-destructive' : 'size-8'}
          aria-label={`${action.label}: ${service.name}`}
          title={action.label}
          onClick={action.run}
        >
          <action.icon aria-hidden="true" />
        </Button>
      ))}
    </div>
  );
}

/** On a card: each action with its words, every one in view. */
function CardButtons({ service, actions }: { service: Service; actions: ServiceActions }) {
  return actionsOf(service, actions).map((action) => (
    <Button key={action.label} variant={action.destructive ? 'destructive' : 'outline'} size="sm" aria-label={`${action.label}: ${service.name}`} onClick={action.run}>
      <action.icon aria-hidden="true" />
      {action.label}
    </Button>
  ));
}

function columnsFor(actions: ServiceActions): DataColumn<Service>[] {
  return [
    { id: 'name', header: c.name, cell: (service) => <span className="font-medium">{service.name}</span> },
    { id: 'category', header: c.category, cell: (service) => SERVICE_CATEGORY_LABELS[service.category] },
    { id: 'price', header: c.price, cell: (service) => formatMoney(service.priceCents), className: 'whitespace-nowrap tabular-nums' },
    { id: 'discount', header: c.discount, cell: discountText, className: 'whitespace-nowrap' },
    { id: 'cardPrice', header: c.cardPrice, cell: (service) => <CardPrices service={service} />, className: 'tabular-nums' },
    { id: 'status', header: c.status, cell: (service) => <StatusBadge service={service} /> },
    {
      id: 'actions',
      header: c.actions,
      headerHidden: true,
      cell: (service) => <RowIconButtons service={service} actions={actions} />,
      cardCell: (service) => <CardButtons service={service} actions={actions} />,
      align: 'right',
    },
  ];
}

type ServicesTableProps = {
  services: Service[] | undefined;
  error: Error | null;
  onRetry: () => void;
  busy: boolean;
  actions: ServiceActions;
};

/** The clinic's price list: a table on a wide screen, a card per service on a phone (every value and action in view). */
export function ServicesTable({ services, error, onRetry, busy, actions }: ServicesTableProps) {
  return (
    <DataTable
      rows={services}
      rowKey={(service) => service.id}
      columns={columnsFor(actions)}
      titleColumn="name"
      actionsColumn="actions"
      caption={m.caption}
      placeholder={rowsPlaceholder({ rows: services, error, onRetry, retrying: busy, emptyText: m.empty })}
      cardsBelow={CARDS_BELOW_PX}
      busy={busy}
    />
  );
}
