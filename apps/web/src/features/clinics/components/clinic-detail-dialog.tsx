import { formatCnpj, formatDate } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { CenteredSpinner } from '@/components/ui/spinner';
import { ErrorState, retryPropsOf } from '@/components/ui/error-state';
import { useClinic } from '../api/get-clinic';
import { ClinicStatusBadge } from './clinic-status-badge';

const a = messages.adminClinics;
const f = a.fields;

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function ClinicDetailBody({ clinicId }: { clinicId: string }) {
  const query = useClinic(clinicId);
  const { data: clinic, error, isPending } = query;
  if (isPending) {
    return <CenteredSpinner />;
  }
  if (error) {
    return <ErrorState variant="inline" {...retryPropsOf(query)} />;
  }
  const place = [clinic.city, clinic.state].filter(Boolean).join('/');
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <Detail term={f.name}>{clinic.name}</Detail>
      <Detail term={f.cnpj}>
        <span className="tabular-nums">{formatCnpj(clinic.cnpj)}</span>
      </Detail>
      <Detail term={f.site}>
        <a href={clinic.url} target="_blank" rel="noreferrer" className="break-all text-primary underline-offset-4 hover:underline">
          {clinic.url}
        </a>
      </Detail>
      <Detail term={f.status}>
        <ClinicStatusBadge status={clinic.status} />
      </Detail>
      <Detail term={f.plan}>{clinic.planName ?? '-'}</Detail>
      <Detail term={f.place}>{place || '-'}</Detail>
      <Detail term={f.patients}>{clinic.patientCount}</Detail>
      <Detail term={f.staff}>{clinic.staffCount}</Detail>
      <Detail term={f.subscriptionPlans}>{clinic.subscriptionPlanCount}</Detail>
      <Detail term={f.activeSubscriptions}>{clinic.activeSubscriptionCount}</Detail>
      <Detail term={f.createdAt}>{formatDate(clinic.createdAt)}</Detail>
      {clinic.trialEndsAt ? <Detail term={f.trialEndsAt}>{formatDate(clinic.trialEndsAt)}</Detail> : null}
    </dl>
  );
}

type ClinicDetailDialogProps = {
  /** The clinic to show; null keeps the dialog closed. */
  clinicId: string | null;
  /** Shown in the title while the detail loads. */
  clinicName: string;
  onClose: () => void;
};

/** "Visualizar": the clinic's record and figures, read from GET /api/admin/clinics/:id. */
export function ClinicDetailDialog({ clinicId, clinicName, onClose }: ClinicDetailDialogProps) {
  return (
    <Dialog open={clinicId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{clinicName}</DialogTitle>
          <DialogDescription>{a.detailDescription}</DialogDescription>
        </DialogHeader>
        {clinicId ? <ClinicDetailBody clinicId={clinicId} /> : null}
      </DialogContent>
    </Dialog>
  );
}
