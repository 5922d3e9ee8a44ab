import { formatMessage, messages } from '@carteirinha/shared/messages';
import { DownloadIcon, PrinterIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { rowsPlaceholder } from '@/components/ui/data-table';
import { ErrorText } from '@/components/ui/error-text';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { SectionCard } from '@/components/ui/section-card';
import { useMe } from '@/app/session';
import { errorMessage } from '@/lib/error-message';
import { MY_DATA_HTML_URL, useCardAccessLog, useDownloadMyData } from '../api/my-data';
import { CardAccessTable } from '../components/card-access-table';
import { DeleteAccountDialog } from '../components/delete-account-dialog';

const m = messages.myData;
const PAGE_SIZE = 10;

function DownloadSection({ clinicName }: { clinicName: string }) {
  const download = useDownloadMyData();
  return (
    <SectionCard id="my-data-download" title={m.downloadTitle} description={formatMessage(m.downloadHelp, { clinic: clinicName })}>
      <div className="flex flex-wrap gap-2">
        <Button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
          <DownloadIcon aria-hidden />
          {m.downloadJson}
        </Button>
        <Button asChild variant="outline">
          <a href={MY_DATA_HTML_URL} target="_blank" rel="noopener">
            <PrinterIcon aria-hidden />
            {m.downloadHtml}
          </a>
        </Button>
      </div>
      {download.error ? <ErrorText>{errorMessage(download.error)}</ErrorText> : null}
    </SectionCard>
  );
}

function CardAccessSection() {
  const [page, setPage] = useState(1);
  const log = useCardAccessLog(page, PAGE_SIZE);
  return (
    <SectionCard id="my-data-access" title={m.accessTitle} description={m.accessHelp}>
      <CardAccessTable
        rows={log.data?.items}
        busy={log.isFetching}
        placeholder={rowsPlaceholder({ rows: log.data?.items, error: log.error, onRetry: () => void log.refetch(), retrying: log.isFetching, emptyText: m.accessEmpty })}
      />
      <Pagination page={page} onPageChange={setPage} shown={log.data} stale={log.isPlaceholderData} />
    </SectionCard>
  );
}

function DeletionSection() {
  const [open, setOpen] = useState(false);
  return (
    <SectionCard id="my-data-deletion" title={m.deleteTitle} description={m.deleteHelp}>
      <div>
        <Button type="button" variant="destructive" onClick={() => setOpen(true)}>
          <Trash2Icon aria-hidden />
          {m.deleteButton}
        </Button>
      </div>
      {open ? <DeleteAccountDialog open onClose={() => setOpen(false)} /> : null}
    </SectionCard>
  );
}

/** Meus Dados (issue 27; ADR 027): the patient's LGPD rights — a copy of their data, who looked, and deletion. */
export function PatientMyDataPage() {
  const { data: me } = useMe();
  return (
    <div className="space-y-6">
      <PageHeader title={m.title} description={m.description} />
      <DownloadSection clinicName={me?.clinic?.name ?? ''} />
      <CardAccessSection />
      <DeletionSection />
    </div>
  );
}
