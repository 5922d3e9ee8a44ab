import { CLINIC_STATUS_LABELS, type Clinic, type ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { formatCnpj, formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { SearchIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useClinics } from '@/features/clinics/api/list-clinics';
import { useDebouncedValue } from '@/lib/use-debounced-value';

const SEARCH_DEBOUNCE_MS = 300;
const COLUMNS = ['Clínica', 'CNPJ', 'Domínio', 'Status', 'Plano', 'Pacientes', 'Receita'] as const;

/** Specification §4: active default, trial secondary, the others destructive. */
function clinicStatusVariant(status: ClinicStatus): 'default' | 'secondary' | 'destructive' {
  switch (status) {
    case 'active':
      return 'default';
    case 'trial':
      return 'secondary';
    case 'suspended':
    case 'cancelled':
      return 'destructive';
  }
}

function ClinicRow({ clinic }: { clinic: Clinic }) {
  return (
    <TableRow>
      <TableCell>
        <div className="font-medium">{clinic.name}</div>
        <div className="text-xs text-muted-foreground">{formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}</div>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">{formatCnpj(clinic.cnpj)}</TableCell>
      <TableCell>{clinic.domain ?? clinic.slug}</TableCell>
      <TableCell>
        <Badge variant={clinicStatusVariant(clinic.status)}>{CLINIC_STATUS_LABELS[clinic.status]}</Badge>
      </TableCell>
      <TableCell>{clinic.planName ?? '-'}</TableCell>
      <TableCell className="tabular-nums">{clinic.patientCount}</TableCell>
      {/* Revenue needs payments, which do not exist yet. */}
      <TableCell>-</TableCell>
    </TableRow>
  );
}

/** One row across the whole table, for the loading, empty and error states. */
function MessageRow({ children }: { children: ReactNode }) {
  return (
    <TableRow className="hover:bg-transparent">
      <TableCell colSpan={COLUMNS.length} className="py-10 text-center text-muted-foreground">
        {children}
      </TableCell>
    </TableRow>
  );
}

export function AdminClinicsPage() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, error, isPending, isFetching, isPlaceholderData } = useClinics({ q, page, pageSize: PAGE_SIZE_DEFAULT });

  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  function renderRows() {
    if (isPending) return <MessageRow>{messages.common.loading}</MessageRow>;
    if (error) {
      return (
        <MessageRow>
          <span role="alert" className="text-destructive">
            {error.message}
          </span>
        </MessageRow>
      );
    }
    if (data.items.length === 0) return <MessageRow>{messages.empty.clinics}</MessageRow>;
    return data.items.map((clinic) => <ClinicRow key={clinic.id} clinic={clinic} />);
  }

  return (
    <>
      <PageHeader title="Gestão de Clínicas" description="Gerencie as clínicas da plataforma" />

      <div className="relative max-w-sm">
        <Label htmlFor={searchId} className="sr-only">
          {messages.clinics.searchLabel}
        </Label>
        <SearchIcon aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" />
        <Input
          id={searchId}
          type="search"
          className="pl-9"
          placeholder={messages.clinics.searchPlaceholder}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            // A new search starts from its first page.
            setPage(1);
          }}
        />
      </div>

      <Table aria-busy={isFetching}>
        <TableCaption className="sr-only">{messages.clinics.tableCaption}</TableCaption>
        <TableHeader>
          <TableRow className="hover:bg-transparent">
            {COLUMNS.map((column) => (
              <TableHead key={column} scope="col">
                {column}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>{renderRows()}</TableBody>
      </Table>

      {data && data.total > data.pageSize ? (
        <nav aria-label={messages.pagination.label} className="flex items-center justify-end gap-3">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {formatMessage(messages.pagination.pageOf, { page: data.page, pages: pageCount })}
          </p>
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((current) => Math.max(1, current - 1))}>
            {messages.pagination.previous}
          </Button>
          <Button
            variant="outline"
            size="sm"
            disabled={isPlaceholderData || page >= pageCount}
            onClick={() => setPage((current) => current + 1)}
          >
            {messages.pagination.next}
          </Button>
        </nav>
      ) : null}
    </>
  );
}
