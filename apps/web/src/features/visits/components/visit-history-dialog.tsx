import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Pagination } from '@/components/ui/pagination';
import { usePageCursors } from '@/lib/use-page-cursor';
import { useVisits } from '../api/list-visits';
import { VisitsTable } from './visits-table';

const s = messages.cardScreens;
const HISTORY_PAGE_SIZE = 10;

function History({ cardId, personName }: { cardId: string; personName: string }) {
  const [page, setPage] = useState(1);
  const cursors = usePageCursors(cardId);
  const visits = useVisits({ q: '', page, pageSize: HISTORY_PAGE_SIZE, cardId, after: cursors.after(page) });
  cursors.remember(visits.data, visits.isPlaceholderData);
  return (
    <div className="grid gap-3">
      <VisitsTable
        visits={visits.data?.items}
        error={visits.error}
        onRetry={() => void visits.refetch()}
        busy={visits.isFetching}
        caption={formatMessage(s.historyTitle, { name: personName })}
        emptyText={s.historyEmpty}
        showPatient={false}
      />
      <Pagination page={page} onPageChange={setPage} shown={visits.data} stale={visits.isPlaceholderData} />
    </div>
  );
}

/** 'Ver Histórico': the validated card's visits at this clinic, newest first. */
export function VisitHistoryDialog({ cardId, personName, open, onOpenChange }: { cardId: string; personName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{formatMessage(s.historyTitle, { name: personName })}</DialogTitle>
          <DialogDescription>{s.historyDescription}</DialogDescription>
        </DialogHeader>
        {open ? <History cardId={cardId} personName={personName} /> : null}
      </DialogContent>
    </Dialog>
  );
}
