import type { CardAccessEntry } from '@carteirinha/shared/contracts/my-data';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { DataTable, type DataColumn } from '@/components/ui/data-table';

const m = messages.myData;

function WhoCell({ entry }: { entry: CardAccessEntry }) {
  if (!entry.userName || !entry.userRole) return <span className="text-muted-foreground">{m.accessUnknownUser}</span>;
  return (
    <span className="grid">
      <span>{entry.userName}</span>
      <span className="text-xs text-muted-foreground">{m.roles[entry.userRole]}</span>
    </span>
  );
}

const COLUMNS: readonly DataColumn<CardAccessEntry>[] = [
  { id: 'when', header: m.accessWhen, cell: (entry) => formatDateTime(entry.at), className: 'whitespace-nowrap' },
  { id: 'who', header: m.accessWho, cell: (entry) => <WhoCell entry={entry} /> },
  { id: 'card', header: m.accessCard, cell: (entry) => (entry.dependentName ? formatMessage(m.accessDependentCard, { name: entry.dependentName }) : m.accessOwnCard) },
  { id: 'how', header: m.accessHow, cell: (entry) => m.methods[entry.method] },
  { id: 'result', header: m.accessResult, cell: (entry) => m.results[entry.result] },
];

type CardAccessTableProps = { rows: readonly CardAccessEntry[] | undefined; placeholder: ReactNode | null; busy: boolean };

/** 'Quem consultou meu cartão': a table on a wide screen, a card per lookup with every value on a phone. */
export function CardAccessTable({ rows, placeholder, busy }: CardAccessTableProps) {
  return <DataTable rows={rows} rowKey={(entry) => entry.id} columns={COLUMNS} titleColumn="when" caption={m.accessTitle} placeholder={placeholder} busy={busy} />;
}
