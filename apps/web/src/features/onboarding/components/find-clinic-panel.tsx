import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ArrowRightIcon, MapPinIcon, SearchIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@/lib/use-debounced-value';
import { CLINIC_SEARCH_MIN_LENGTH, usePublicClinicSearch, type PublicClinic } from '../api/search-public-clinics';


/** "São Paulo / SP", or whichever half is known. */
function placeOf(clinic: PublicClinic): string | null {
  const place = [clinic.city, clinic.state].filter(Boolean).join(' / ');
  return place || null;
}

function ClinicResult({ clinic }: { clinic: PublicClinic }) {
  const place = placeOf(clinic);
  return (
    <li className="flex flex-col gap-3 rounded-lg border p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="truncate font-medium">{clinic.name}</p>
        {place ? (
          <p className="flex items-center gap-1 text-sm text-muted-foreground">
            <MapPinIcon aria-hidden="true" className="size-3.5" />
            {place}
          </p>
        ) : null}
      </div>
      <Button asChild size="sm" variant="outline" className="shrink-0">
        {/* Another host: a full page load, where sign-up makes a patient of that clinic. */}
        <a href={`${clinic.url}/auth?tab=cadastrar`}>
          {formatMessage(messages.tenancy.continueAt, { name: clinic.name })}
          <ArrowRightIcon aria-hidden="true" />
        </a>
      </Button>
    </li>
  );
}

function SearchResults({ query }: { query: string }) {
  const { data: clinics, isFetching, isError } = usePublicClinicSearch(query);
  if (query.length < CLINIC_SEARCH_MIN_LENGTH) return null;
  if (isError) return <p className="text-sm text-destructive">{messages.errors.INTERNAL}</p>;
  if (!clinics) return isFetching ? <Spinner className="justify-self-center" /> : null;
  if (clinics.length === 0) return <p className="text-sm text-muted-foreground">{messages.empty.clinics}</p>;
  return (
    <ul aria-label={messages.tenancy.clinicSearchResults} aria-busy={isFetching} className="grid gap-3">
      {clinics.map((clinic) => (
        <ClinicResult key={clinic.url} clinic={clinic} />
      ))}
    </ul>
  );
}

/**
 * "Sou paciente": a person who came to the platform's site to join their clinic's card is sent to that clinic's own
 * site, so that signing up there makes them its patient — and nobody creates a clinic by mistake.
 */
export function FindClinicPanel() {
  const [query, setQuery] = useState('');
  const trimmed = query.trim();
  const debouncedQuery = useDebouncedValue(trimmed, SEARCH_DEBOUNCE_MS);
  const tooShort = trimmed.length > 0 && trimmed.length < CLINIC_SEARCH_MIN_LENGTH;

  return (
    <div className="grid gap-4">
      <p className="text-sm text-muted-foreground">{messages.tenancy.patientExplanation}</p>
      <div className="relative">
        <TextField
          type="search"
          label={messages.tenancy.clinicSearchLabel}
          placeholder={messages.tenancy.clinicSearchPlaceholder}
          autoComplete="off"
          className="pl-9"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          description={tooShort ? messages.tenancy.clinicSearchMin : undefined}
        />
        <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-[2.15rem] left-3 size-4 text-muted-foreground" />
      </div>
      <div aria-live="polite" className="grid">
        <SearchResults query={debouncedQuery} />
      </div>
    </div>
  );
}
