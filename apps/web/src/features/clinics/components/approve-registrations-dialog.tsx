import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Pagination } from '@/components/ui/pagination';
import { CenteredSpinner } from '@/components/ui/spinner';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { asyncHandler } from '@/lib/async-handler';
import { errorMessage } from '@/lib/error-message';
import { useClampedPage } from '@/lib/use-clamped-page';
import { useApproveClinic } from '../api/approve-clinic';
import { useClinics } from '../api/list-clinics';

/** A short page: the dialog is small, and approving empties it one clinic at a time. */
const PENDING_PAGE_SIZE = 10;

const a = messages.adminClinics;

function PendingRegistration({ clinic }: { clinic: AdminClinic }) {
  const approveClinic = useApproveClinic();

  const approve = async () => {
    try {
      await approveClinic.mutateAsync(clinic.id);
      toast.success(messages.admin.registrationApproved);
    } catch (error) {
      console.warn('Falha ao aprovar o cadastro', error);
      toast.error(formatMessage(messages.admin.registrationApproveError, { message: errorMessage(error) }));
    }
  };

  return (
    <li className="flex items-center justify-between gap-3 py-3">
      <div className="min-w-0">
        <p className="truncate font-medium">{clinic.name}</p>
        <p className="text-xs text-muted-foreground">
          {formatMessage(messages.clinics.createdOn, { date: formatDate(clinic.createdAt) })}
          {clinic.trialEndsAt ? ` · ${formatMessage(a.trialUntil, { date: formatDate(clinic.trialEndsAt) })}` : null}
        </p>
      </div>
      <Button size="sm" disabled={approveClinic.isPending} onClick={asyncHandler(approve)}>
        {a.approve}<span className="sr-only"> {clinic.name}</span>
      </Button>
    </li>
  );
}

/**
 * The sign-ups awaiting approval, read page by page from GET /api/admin/clinics?awaitingApproval=true. Mounted only
 * while the dialog is open, so the list is fresh each time it opens.
 */
function PendingRegistrationsList() {
  const [page, setPage] = useState(1);
  const query = useClinics({ q: '', page, pageSize: PENDING_PAGE_SIZE, awaitingApproval: true });
  const { data, error, isPending, isPlaceholderData } = query;
  // Approving the last clinic of the last page empties it: go back to the page before.
  useClampedPage(page, setPage, data);

  if (isPending) {
    return <CenteredSpinner />;
  }
  if (error) {
    return <ErrorState variant="inline" {...retryPropsOf(query)} />;
  }
  if (data.items.length === 0) return <p className="text-sm text-muted-foreground">{a.noPendingRegistrations}</p>;
  return (
    <div className="grid gap-3">
      <ul className="divide-y" aria-label={a.pendingRegistrations}>
        {data.items.map((clinic) => (
          <PendingRegistration key={clinic.id} clinic={clinic} />
        ))}
      </ul>
      <Pagination page={page} onPageChange={setPage} shown={data} stale={isPlaceholderData} />
    </div>
  );
}

type ApproveRegistrationsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/** 'Aprovar Cadastro': each clinic that signed up on its own and awaits approval, with a button that accepts it. */
export function ApproveRegistrationsDialog({ open, onOpenChange }: ApproveRegistrationsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{a.approveRegistrations}</DialogTitle>
          <DialogDescription>{a.approveRegistrationsDescription}</DialogDescription>
        </DialogHeader>
        {open ? <PendingRegistrationsList /> : null}
      </DialogContent>
    </Dialog>
  );
}
