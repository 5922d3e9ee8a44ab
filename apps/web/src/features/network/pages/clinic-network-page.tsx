import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import type { NetworkPlace, PartnerLimit } from '@carteirinha/shared/contracts/network';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { rowsPlaceholder } from '@/components/ui/data-table';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { lazyComponent } from '@/lib/lazy-component';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { useClinicNetwork } from '../api/clinic-network';
import { PlacesTable } from '../components/places-table';

// The form (with the map) and the deletion load when their dialog first opens.
const PlaceFormDialog = lazyComponent(() => import('../components/place-form-dialog'), (module) => module.PlaceFormDialog);
const DeletePlaceDialog = lazyComponent(() => import('../components/delete-place-dialog'), (module) => module.DeletePlaceDialog);

const m = messages.network;

type OpenDialog = { kind: 'none' } | { kind: 'form'; place: NetworkPlace | null } | { kind: 'delete'; place: NetworkPlace };

/** How many partners the platform plan allows and the clinic has (ADR 024: own units do not count). */
function PartnerLimitNote({ limit }: { limit: PartnerLimit }) {
  const text = limit.max === null ? formatMessage(m.partnerLimitUnlimited, { used: limit.used }) : formatMessage(m.partnerLimit, { used: limit.used, max: limit.max });
  return (
    <p data-testid="partner-limit" className="text-sm text-muted-foreground">
      <span className="font-medium text-foreground">{text}</span> {m.partnerLimitHelp}
    </p>
  );
}

/**
 * Rede Credenciada of the clinic portal (issue 26): the programme's own units, partner clinics and laboratories, each
 * with its position on the map, searched on the server, within the platform plan's partner limit.
 */
export function ClinicNetworkPage() {
  const { search, setSearch, q, page, setPage } = useListSearch();
  const network = useClinicNetwork({ q, page, pageSize: PAGE_SIZE_DEFAULT });
  const { data, error, isPending, isFetching, isPlaceholderData } = network;
  useClampedPage(page, setPage, data);
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const closeDialog = () => setDialog({ kind: 'none' });

  return (
    <>
      <PageHeader
        title={m.title}
        description={m.clinicDescription}
        actions={
          <Button onClick={() => setDialog({ kind: 'form', place: null })}>
            <PlusIcon aria-hidden="true" />
            {m.add}
          </Button>
        }
      />
      {data ? <PartnerLimitNote limit={data.partnerLimit} /> : null}
      <ListSearchBox label={m.searchLabel} placeholder={m.searchPlaceholder} value={search} onChange={setSearch} />
      <PlacesTable
        places={data?.items}
        placeholder={
          isPending
            ? messages.common.loading
            : rowsPlaceholder({ rows: data?.items, error, onRetry: () => void network.refetch(), retrying: isFetching, emptyText: q ? m.emptySearch : m.empty })
        }
        busy={isFetching}
        actions={{ onEdit: (place) => setDialog({ kind: 'form', place }), onDelete: (place) => setDialog({ kind: 'delete', place }) }}
      />
      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />

      <LoadWhenOpen open={dialog.kind === 'form'}>
        <PlaceFormDialog open={dialog.kind === 'form'} onOpenChange={(open) => (open ? undefined : closeDialog())} place={dialog.kind === 'form' ? dialog.place : null} />
      </LoadWhenOpen>
      <LoadWhenOpen open={dialog.kind === 'delete'}>
        <DeletePlaceDialog place={dialog.kind === 'delete' ? dialog.place : null} onClose={closeDialog} />
      </LoadWhenOpen>
    </>
  );
}
