import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { usePageCursors } from '@/lib/use-page-cursor';
import { useVisits } from '../api/list-visits';
import { VisitsTable } from './visits-table';

const s = messages.cardScreens;

/** Atendimentos: the clinic's visits, searched and paged on the server. */
export function VisitsList() {
  const { search, setSearch, q, page, setPage } = useListSearch();
  const cursors = usePageCursors(q);
  const visits = useVisits({ q, page, pageSize: PAGE_SIZE_DEFAULT, after: cursors.after(page) });
  cursors.remember(visits.data, visits.isPlaceholderData);
  useClampedPage(page, setPage, visits.data);
  return (
    <>
      <ListSearchBox label={s.visitsSearchLabel} placeholder={s.visitsSearchPlaceholder} value={search} onChange={setSearch} />
      <VisitsTable
        visits={visits.data?.items}
        error={visits.error}
        onRetry={() => void visits.refetch()}
        busy={visits.isFetching}
        caption={s.visitsCaption}
        emptyText={s.visitsEmpty}
      />
      <Pagination page={page} onPageChange={setPage} shown={visits.data} stale={visits.isPlaceholderData} />
    </>
  );
}
