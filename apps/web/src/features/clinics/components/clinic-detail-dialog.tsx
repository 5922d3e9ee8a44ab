import { formatCnpj, formatDate } from '@carteirinha/shared/format';
import type { ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/error-message';
import { useClinic } from '../api/get-clinic';
import { ClinicStatusBadge } from './clinic-status-badge';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function ClinicDetailBody({ clinicId }: { clinicId: string }) {
  const { data: clinic, error, isPending } = useClinic(clinicId);
  if (isPending) {
    return (
      <div className="flex justify-center py-8">
        <Spinner />
      </div>
    );
  }
  if (error) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(error)}
      </p>
    );
  }
  const place = [clinic.city, clinic.state].filter(Boolean).join('/');
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      <Detail term="Nome">{clinic.name}</Detail>
      <Detail term="CNPJ">
        <span className="tabular-nums">{formatCnpj(clinic.cnpj)}</span>
      </Detail>
      <Detail term="Site">
        <a href={clinic.url} target="_blank" rel="noreferrer" className="break-all text-primary underline-offset-4 hover:underline">
          {clinic.url}
        </a>
      </Detail>
      <Detail term="Status">
        <ClinicStatusBadge status={clinic.status} />
      </Detail>
      <Detail term="Plano">{clinic.planName ?? '-'}</Detail>
      <Detail term="Cidade/UF">{place || '-'}</Detail>
      <Detail term="Pacientes">{clinic.patientCount}</Detail>
      <Detail term="Equipe">{clinic.staffCount}</Detail>
      <Detail term="Planos para pacientes">{clinic.subscriptionPlanCount}</Detail>
      <Detail term="Assinaturas ativas">{clinic.activeSubscriptionCount}</Detail>
      <Detail term="Criada em">{formatDate(clinic.createdAt)}</Detail>
      {clinic.trialEndsAt ? <Detail term="Fim do trial">{formatDate(clinic.trialEndsAt)}</Detail> : null}
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
          <DialogDescription>Dados da clínica na plataforma</DialogDescription>
        </DialogHeader>
        {clinicId ? <ClinicDetailBody clinicId={clinicId} /> : null}
      </DialogContent>
    </Dialog>
  );
}
