import { messages } from '@carteirinha/shared/messages';
import { useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { cn } from '@/lib/utils';
import { ErrorState } from './error-state';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableMessageRow, TableRow } from './table';

/**
 * The product's one way to show a list of records (issue 23): a table where there is room for its columns, and below
 * that width a list of cards that shows every value and every action of each row, so that nothing on a phone hides
 * behind a sideways scroll. The width is the list's own container's (a sidebar takes part of a tablet's screen), and
 * only one of the two is rendered, so each value is in the page once.
 */
export type DataColumn<Row> = {
  id: string;
  /** The column's title in the table, and the label of the value on a card. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** What a card shows instead of `cell`, where the value needs its label there (a card's title has none). */
  cardCell?: (row: Row) => ReactNode;
  align?: 'right';
  /** Classes of the table's cells (widths, wrapping). */
  className?: string;
  /** A header for screen readers only (the actions column). */
  headerHidden?: boolean;
};

type DataTableProps<Row> = {
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string;
  columns: readonly DataColumn<Row>[];
  /** The column whose value heads each card (the record's name or date). */
  titleColumn: string;
  /** The column of the row's buttons and links: at the foot of each card. */
  actionsColumn?: string;
  caption: string;
  /** What stands in for the rows: loading, an error with 'Tentar novamente', or the empty list's words. */
  placeholder: ReactNode | null;
  /** Below this width of its container (px) the rows are cards. */
  cardsBelow?: number;
  busy?: boolean;
  className?: string;
};

/** The element's width, measured before the first paint and kept up to date as it resizes. */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function RowCards<Row>({ rows, rowKey, columns, titleColumn, actionsColumn, caption }: Omit<DataTableProps<Row>, 'rows' | 'placeholder'> & { rows: readonly Row[] }) {
  const title = columns.find((column) => column.id === titleColumn);
  const actions = columns.find((column) => column.id === actionsColumn);
  const details = columns.filter((column) => column !== title && column !== actions);
  return (
    <ul aria-label={caption} className="grid gap-3">
      {rows.map((row) => (
        <li key={rowKey(row)} className="rounded-xl border bg-card p-4 shadow-xs">
          {title ? <div className="font-medium">{(title.cardCell ?? title.cell)(row)}</div> : null}
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
            {details.map((column) => (
              <div key={column.id} className="col-span-2 grid grid-cols-subgrid items-center">
                <dt className="text-muted-foreground">{column.header}</dt>
                <dd className="min-w-0 justify-self-end text-right break-words tabular-nums">{(column.cardCell ?? column.cell)(row)}</dd>
              </div>
            ))}
          </dl>
          {actions ? <div className="mt-3 flex flex-wrap justify-end gap-2 border-t pt-3">{(actions.cardCell ?? actions.cell)(row)}</div> : null}
        </li>
      ))}
    </ul>
  );
}

export function DataTable<Row>(props: DataTableProps<Row>) {
  const { rows, rowKey, columns, caption, placeholder, cardsBelow = 640, busy = false, className } = props;
  const containerRef = useRef<HTMLDivElement>(null);
  const width = useWidth(containerRef);
  const asCards = width !== null && width < cardsBelow;
  return (
    <div ref={containerRef} className={cn('min-w-0', className)} aria-busy={busy} data-layout={asCards ? 'cards' : 'table'}>
      {asCards ? (
        placeholder !== null || !rows ? (
          <div className="rounded-xl border bg-card px-4 py-10 text-center text-sm text-muted-foreground">{placeholder}</div>
        ) : (
          <RowCards {...props} rows={rows} />
        )
      ) : (
        <Table>
          <TableCaption className="sr-only">{caption}</TableCaption>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              {columns.map((column) => (
                <TableHead key={column.id} scope="col" className={cn(column.align === 'right' && 'text-right')}>
                  {column.headerHidden ? <span className="sr-only">{column.header}</span> : column.header}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {placeholder !== null || !rows ? (
              <TableMessageRow colSpan={columns.length}>{placeholder}</TableMessageRow>
            ) : (
              rows.map((row) => (
                <TableRow key={rowKey(row)}>
                  {columns.map((column) => (
                    <TableCell key={column.id} className={cn(column.align === 'right' && 'text-right', column.className)}>
                      {column.cell(row)}
                    </TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

/**
 * What a `DataTable` shows instead of its rows, from its query's state: the error with 'Tentar novamente', the
 * loading line, or the empty list's words; null once there are rows to show.
 */
export function rowsPlaceholder(state: { rows: readonly unknown[] | undefined; error: unknown; onRetry: () => void; retrying?: boolean; emptyText: string }): ReactNode | null {
  if (state.error) return <ErrorState variant="inline" error={state.error} onRetry={state.onRetry} retrying={state.retrying ?? false} />;
  if (!state.rows) return messages.common.loading;
  if (state.rows.length === 0) return state.emptyText;
  return null;
}
