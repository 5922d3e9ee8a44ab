import { NETWORK_CATEGORY_LABELS, type NetworkPlace } from '@carteirinha/shared/contracts/network';
import { formatIsoDay, formatPhone } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { PencilIcon, Trash2Icon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { DataTable, type DataColumn } from '@/components/ui/data-table';

const m = messages.network;
const c = m.columns;

/** Below this width of the list's own container each place is a card with every value and action in view. */
const CARDS_BELOW_PX = 900;

export type PlaceActions = { onEdit: (place: NetworkPlace) => void; onDelete: (place: NetworkPlace) => void };

type Action = { label: string; icon: LucideIcon; run: () => void; destructive?: boolean };

function actionsOf(place: NetworkPlace, actions: PlaceActions): Action[] {
  return [
    { label: m.edit, icon: PencilIcon, run: () => actions.onEdit(place) },
    { label: m.delete, icon: Trash2Icon, run: () => actions.onDelete(place), destructive: true },
  ];
}

function RowIconButtons({ place, actions }: { place: NetworkPlace; actions: PlaceActions }) {
  return (
    <div className="flex justify-end gap-1">
      {actionsOf(place, actions).map((action) => (
        <Button
          key={action.label}
          variant="ghost"
          size="icon"
          className={action.destructive ? 'size-8 text-destructive hover:text-destructive' : 'size-8'}
          aria-label={`${action.label}: ${place.name}`}
          title={action.label}
          onClick={action.run}
        >
          <action.icon aria-hidden="true" />
        </Button>
      ))}
    </div>
  );
}

function CardButtons({ place, actions }: { place: NetworkPlace; actions: PlaceActions }) {
  return actionsOf(place, actions).map((action) => (
    <Button key={action.label} variant={action.destructive ? 'destructive' : 'outline'} size="sm" aria-label={`${action.label}: ${place.name}`} onClick={action.run}>
      <action.icon aria-hidden="true" />
      {action.label}
    </Button>
  ));
}

function columnsFor(actions: PlaceActions): DataColumn<NetworkPlace>[] {
  return [
    { id: 'name', header: c.name, cell: (place) => <span className="font-medium">{place.name}</span> },
    { id: 'category', header: c.category, cell: (place) => NETWORK_CATEGORY_LABELS[place.category], className: 'whitespace-nowrap' },
    { id: 'address', header: c.address, cell: (place) => place.address },
    { id: 'phone', header: c.phone, cell: (place) => (place.phone ? formatPhone(place.phone) : '-'), className: 'whitespace-nowrap tabular-nums' },
    { id: 'hours', header: c.hours, cell: (place) => place.hours ?? '-' },
    { id: 'services', header: c.services, cell: (place) => (place.services.length > 0 ? place.services.join(', ') : '-') },
    { id: 'confirmed', header: c.confirmed, cell: (place) => formatIsoDay(place.lastConfirmedOn), className: 'whitespace-nowrap tabular-nums' },
    {
      id: 'actions',
      header: c.actions,
      headerHidden: true,
      cell: (place) => <RowIconButtons place={place} actions={actions} />,
      cardCell: (place) => <CardButtons place={place} actions={actions} />,
      align: 'right',
    },
  ];
}

type PlacesTableProps = {
  places: NetworkPlace[] | undefined;
  placeholder: ReactNode;
  busy: boolean;
  actions: PlaceActions;
};

/** The clinic's accredited places: a table on a wide screen, a card per place on a phone. */
export function PlacesTable({ places, placeholder, busy, actions }: PlacesTableProps) {
  return (
    <DataTable
      rows={places}
      rowKey={(place) => place.id}
      columns={columnsFor(actions)}
      titleColumn="name"
      actionsColumn="actions"
      caption={m.caption}
      placeholder={placeholder}
      cardsBelow={CARDS_BELOW_PX}
      busy={busy}
    />
  );
}
