import { formatCount, messages } from '@carteirinha/shared/messages';
import { LocateFixedIcon, MapPinIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { ErrorState } from '@/components/ui/error-state';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { CenteredSpinner } from '@/components/ui/spinner';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { usePatientNetwork } from '../api/patient-network';
import { NetworkMap } from '../components/network-map';
import { PlaceCard } from '../components/place-card';
import { useGeolocation, type LocationState } from '../lib/use-geolocation';

const m = messages.network;
const PAGE_SIZE = 20;

function locationNote(state: LocationState): { text: string; error: boolean } | null {
  switch (state.kind) {
    case 'on':
      return { text: m.locationOn, error: false };
    case 'denied':
      return { text: m.locationDenied, error: true };
    case 'unsupported':
      return { text: m.locationUnsupported, error: true };
    case 'off':
    case 'locating':
      return null;
  }
}

/**
 * Rede Credenciada of the patient portal (issue 27): the programme's places searched on the server by name, category
 * or address, with the count found; 'Ativar Localização' sorts them by real distance and shows the km; the map has a
 * marker per place; each card opens directions and the clinic's price table.
 */
export function PatientNetworkPage() {
  const { search, setSearch, q, page, setPage } = useListSearch();
  const location = useGeolocation();
  const network = usePatientNetwork({ q, page, pageSize: PAGE_SIZE, origin: location.position });
  const { data, error, isPending, isFetching, isPlaceholderData } = network;
  useClampedPage(page, setPage, data);
  const note = locationNote(location.state);

  return (
    <>
      <PageHeader title={m.title} description={m.patientDescription} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <ListSearchBox label={m.searchLabel} placeholder={m.searchPlaceholder} value={search} onChange={setSearch} />
        </div>
        <Button variant="outline" onClick={location.locate} disabled={location.state.kind === 'locating'}>
          <LocateFixedIcon aria-hidden="true" />
          {location.state.kind === 'locating' ? m.locating : m.enableLocation}
        </Button>
      </div>
      <div aria-live="polite" className="grid gap-1">
        {data ? (
          <p data-testid="network-count" className="text-sm font-medium">
            {formatCount(m.found, data.total)}
          </p>
        ) : null}
        {note ? <p className={note.error ? 'text-sm text-destructive' : 'text-sm text-muted-foreground'}>{note.text}</p> : null}
      </div>
      <NetworkMap label={m.mapTitle} places={data?.items ?? []} you={location.position} />
      {isPending ? <CenteredSpinner /> : null}
      {error && !data ? <ErrorState error={error} onRetry={() => void network.refetch()} retrying={isFetching} /> : null}
      {data && data.items.length === 0 ? <EmptyState icon={MapPinIcon} title={q ? m.emptySearch : m.empty} /> : null}
      {data && data.items.length > 0 ? (
        <ul aria-label={m.caption} aria-busy={isFetching} className="grid gap-4 lg:grid-cols-2">
          {data.items.map((place) => (
            <PlaceCard key={place.id} place={place} priceTableUrl={data.priceTableUrl} />
          ))}
        </ul>
      ) : null}
      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />
    </>
  );
}
