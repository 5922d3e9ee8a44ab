import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PlusIcon, SearchIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { useClinics } from '@/features/clinics/api/list-clinics';
import { ClinicDetailDialog } from '@/features/clinics/components/clinic-detail-dialog';
import { ClinicFormDialog } from '@/features/clinics/components/clinic-form-dialog';
import { ClinicSummaryCards } from '@/features/clinics/components/clinic-summary-cards';
import { ClinicsTable } from '@/features/clinics/components/clinics-table';
import { DeleteClinicDialog } from '@/features/clinics/components/delete-clinic-dialog';
import { usePlans } from '@/features/plans/api/list-plans';
import { useDebouncedValue } from '@/lib/use-debounced-value';

const SEARCH_DEBOUNCE_MS = 300;

/** Which clinic dialog is open: the form (new or edit), the detail or the delete confirmation. */
type OpenDialog =
  | { kind: 'none' }
  | { kind: 'form'; clinic: AdminClinic | null }
  | { kind: 'view'; clinic: AdminClinic }
  | { kind: 'delete'; clinic: AdminClinic };

export function AdminClinicsPage() {
  const searchId = useId();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const { data, error, isFetching, isPlaceholderData } = useClinics({ q, page, pageSize: PAGE_SIZE_DEFAULT });
  const plans = usePlans();

  const closeDialog = () => setDialog({ kind: 'none' });

  return (
    <>
      <PageHeader
        title="Gestão de Clínicas"
        description="Gerencie as clínicas da plataforma"
        actions={
          <Button onClick={() => setDialog({ kind: 'form', clinic: null })}>
            <PlusIcon aria-hidden="true" />
            Nova Clínica
          </Button>
        }
      />

      <ClinicSummaryCards />

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

      <ClinicsTable
        clinics={data?.items}
        error={error}
        busy={isFetching}
        actions={{
          onView: (clinic) => {
            toast.info(formatMessage(messages.admin.viewingClinic, { name: clinic.name }));
            setDialog({ kind: 'view', clinic });
          },
          onEdit: (clinic) => setDialog({ kind: 'form', clinic }),
          onDelete: (clinic) => setDialog({ kind: 'delete', clinic }),
        }}
      />

      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />

      <ClinicFormDialog
        open={dialog.kind === 'form'}
        onOpenChange={(open) => (open ? undefined : closeDialog())}
        clinic={dialog.kind === 'form' ? dialog.clinic : null}
        plans={plans.data}
      />
      <ClinicDetailDialog
        clinicId={dialog.kind === 'view' ? dialog.clinic.id : null}
        clinicName={dialog.kind === 'view' ? dialog.clinic.name : ''}
        onClose={closeDialog}
      />
      <DeleteClinicDialog clinic={dialog.kind === 'delete' ? dialog.clinic : null} onClose={closeDialog} />
    </>
  );
}
