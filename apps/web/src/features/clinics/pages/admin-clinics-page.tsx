import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { PAGE_SIZE_DEFAULT } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeader } from '@/components/ui/page-header';
import { Pagination } from '@/components/ui/pagination';
import { ListSearchBox } from '@/components/ui/search-input';
import { usePlans } from '@/features/plans/api/list-plans';
import { CLINIC_SEARCH_PARAM } from '@/lib/admin-links';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useListSearch } from '@/lib/use-list-search';
import { useClinics } from '../api/list-clinics';
import { ClinicDetailDialog } from '../components/clinic-detail-dialog';
import { ClinicFormDialog } from '../components/clinic-form-dialog';
import { ClinicSummaryCards } from '../components/clinic-summary-cards';
import { ClinicsTable } from '../components/clinics-table';
import { DeleteClinicDialog } from '../components/delete-clinic-dialog';

/** Which clinic dialog is open: the form (new or edit), the detail or the delete confirmation. */
type OpenDialog =
  | { kind: 'none' }
  | { kind: 'form'; clinic: AdminClinic | null }
  | { kind: 'view'; clinic: AdminClinic }
  | { kind: 'delete'; clinic: AdminClinic };

export function AdminClinicsPage() {
  // A dashboard alert opens the list searched for its clinic.
  const [searchParams] = useSearchParams();
  const { search, setSearch, q, page, setPage } = useListSearch(searchParams.get(CLINIC_SEARCH_PARAM) ?? '');
  const [dialog, setDialog] = useState<OpenDialog>({ kind: 'none' });
  const clinics = useClinics({ q, page, pageSize: PAGE_SIZE_DEFAULT });
  const { data, error, isFetching, isPlaceholderData } = clinics;
  // Deleting the only clinic of the last page empties it: go back to the last page that has rows.
  useClampedPage(page, setPage, data);
  const plans = usePlans();

  const closeDialog = () => setDialog({ kind: 'none' });

  return (
    <>
      <PageHeader
        title={messages.adminClinics.title}
        description={messages.adminClinics.description}
        actions={
          <Button onClick={() => setDialog({ kind: 'form', clinic: null })}>
            <PlusIcon aria-hidden="true" />
            {messages.adminClinics.newClinic}
          </Button>
        }
      />

      <ClinicSummaryCards />

      <ListSearchBox label={messages.clinics.searchLabel} placeholder={messages.clinics.searchPlaceholder} value={search} onChange={setSearch} />

      <ClinicsTable
        clinics={data?.items}
        error={error}
        onRetry={() => void clinics.refetch()}
        busy={isFetching}
        actions={{
          // The dialog names the clinic: no 'Visualizando: {name}' toast beside it saying the same (issue 13).
          onView: (clinic) => setDialog({ kind: 'view', clinic }),
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
        plansError={plans.error}
        onRetryPlans={() => void plans.refetch()}
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
