import { formatMessage, messages } from '@carteirinha/shared/messages';
import { Button } from './button';

type PageInfo = { page: number; pageSize: number; total: number };

type PaginationProps = {
  /** The page asked for. */
  page: number;
  onPageChange: (page: number) => void;
  /** The answer on screen (its page, size and total); undefined while the first one loads. */
  shown: PageInfo | undefined;
  /** The answer on screen is the previous one, kept while the page asked for loads: 'Próxima' waits for it. */
  stale: boolean;
};

/** 'Página 2 de 5' with 'Anterior' and 'Próxima' under a server-paged table; nothing when everything fits on one page. */
export function Pagination({ page, onPageChange, shown, stale }: PaginationProps) {
  if (!shown || shown.total <= shown.pageSize) return null;
  const pageCount = Math.max(1, Math.ceil(shown.total / shown.pageSize));
  return (
    <nav aria-label={messages.pagination.label} className="flex flex-wrap items-center justify-end gap-3">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {formatMessage(messages.pagination.pageOf, { page: shown.page, pages: pageCount })}
      </p>
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPageChange(Math.max(1, page - 1))}>
        {messages.pagination.previous}
      </Button>
      <Button variant="outline" size="sm" disabled={stale || page >= pageCount} onClick={() => onPageChange(page + 1)}>
        {messages.pagination.next}
      </Button>
    </nav>
  );
}
