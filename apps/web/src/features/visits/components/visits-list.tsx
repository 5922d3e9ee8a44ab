import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DownloadIcon, FilterIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { errorMessage } from '@/lib/error-message';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { usePageCursors } from '@/lib/use-page-cursor';
import { useExportVisitsCsv } from '../api/export-visits-csv';
import { useVisits, type VisitFilters } from '../api/list-visits';
import { activeFilterCount } from '../lib/visit-filters';
import { VisitStatusActions } from './visit-status-actions';
import { VisitsTable } from './visits-table';

const s = messages.cardScreens;
const v = messages.visitsScreen;

const VisitFiltersDialog = lazyComponent(() => import('./visit-filters-dialog'), (m) => m.VisitFiltersDialog);

/** Nine columns and the buttons need a wide list; narrower (a tablet beside the sidebar, a phone), each visit is a card. */
const CARDS_BELOW_PX = 960;

/** 'Exportar' with the list's search and filters; its answer (a refusal such as "nothing to export") is said beside it. */
function ExportButton({ q, filters }: { q: string; filters: VisitFilters }) {
  const exportCsv = useExportVisitsCsv();
  const [refusal, setRefusal] = useState<string | null>(null);
  function onExport() {
    setRefusal(null);
    exportCsv.mutate(
      { q, filters },
      {
        onSuccess: () => toast.success(v.exported),
        onError: (error) => setRefusal(formatMessage(v.exportError, { message: errorMessage(error) })),
      },
    );
  }
  return (
    <>
      <Button type="button" variant="outline" disabled={exportCsv.isPending} aria-busy={exportCsv.isPending} onClick={onExport}>
        <DownloadIcon aria-hidden="true" />
        {exportCsv.isPending ? v.exporting : v.export}
      </Button>
      {refusal ? (
        <p role="alert" data-testid="export-refusal" className="w-full text-sm text-destructive">
          {refusal}
        </p>
      ) : null}
    </>
  );
}

/** Atendimentos: the clinic's visits, searched, filtered and paged on the server, each with its status buttons. */
export function VisitsList() {
  const { search, setSearch, q, page, setPage } = useListSearch();
  const [filters, setFilters] = useState<VisitFilters>({});
  const [filtersOpen, setFiltersOpen] = useState(false);
  const listKey = JSON.stringify({ q, filters });
  const cursors = usePageCursors(listKey);
  const visits = useVisits({ q, page, pageSize: PAGE_SIZE_DEFAULT, after: cursors.after(page), ...filters });
  cursors.remember(visits.data, visits.isPlaceholderData);
  useClampedPage(page, setPage, visits.data);
  const active = activeFilterCount(filters);

  function applyFilters(next: VisitFilters) {
    setFilters(next);
    setPage(1);
  }

  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <div className="min-w-0 flex-1 basis-60">
          <ListSearchBox label={s.visitsSearchLabel} placeholder={s.visitsSearchPlaceholder} value={search} onChange={setSearch} />
        </div>
        <Button type="button" variant="outline" onClick={() => setFiltersOpen(true)}>
          <FilterIcon aria-hidden="true" />
          {v.filters}
          {active > 0 ? <span className="text-xs text-muted-foreground">({formatMessage(v.activeFilters, { count: active })})</span> : null}
        </Button>
        <ExportButton q={q} filters={filters} />
      </div>
      <VisitsTable
        visits={visits.data?.items}
        error={visits.error}
        onRetry={() => void visits.refetch()}
        busy={visits.isFetching}
        caption={s.visitsCaption}
        emptyText={s.visitsEmpty}
        actions={(visit) => <VisitStatusActions visit={visit} />}
        cardsBelow={CARDS_BELOW_PX}
      />
      <Pagination page={page} onPageChange={setPage} shown={visits.data} stale={visits.isPlaceholderData} />
      <LoadWhenOpen open={filtersOpen}>
        <VisitFiltersDialog open={filtersOpen} onOpenChange={setFiltersOpen} filters={filters} onApply={applyFilters} />
      </LoadWhenOpen>
    </>
  );
}
