import { canMoveVisit, VISIT_STATUS_LABELS, type Visit, type VisitStatus } from '@carteirinha/shared/contracts/visits';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { CheckIcon, PlayIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/error-message';
import { lazyComponent } from '@/lib/lazy-component';
import { toast } from '@/lib/toasts';
import { useChangeVisitStatus } from '../api/change-visit-status';

const v = messages.visitsScreen;

const CancelVisitDialog = lazyComponent(() => import('./cancel-visit-dialog'), (m) => m.CancelVisitDialog);

/** The step forward a visit can take from where it is: Iniciar a booking, Concluir one under way. */
const FORWARD: Partial<Record<VisitStatus, { to: VisitStatus; label: string; icon: typeof PlayIcon }>> = {
  aguardando: { to: 'em_andamento', label: v.start, icon: PlayIcon },
  em_andamento: { to: 'concluido', label: v.conclude, icon: CheckIcon },
};

/**
 * A visit's status buttons in Atendimentos (the same on a phone's card): Iniciar or Concluir, and Cancelar, which
 * asks for the reason first. A cancelled visit has none: it is final.
 */
export function VisitStatusActions({ visit }: { visit: Visit }) {
  const [cancelling, setCancelling] = useState(false);
  const changeStatus = useChangeVisitStatus();
  const forward = FORWARD[visit.status];
  const canCancel = canMoveVisit(visit.status, 'cancelado');

  function moveForward(to: VisitStatus) {
    changeStatus.mutate(
      { visitId: visit.id, change: { status: to } },
      {
        onSuccess: () => toast.success(formatMessage(v.moved, { status: VISIT_STATUS_LABELS[to] })),
        onError: (error) => toast.error(formatMessage(v.moveError, { message: errorMessage(error) })),
      },
    );
  }

  if (!forward && !canCancel) return null;
  return (
    <div className="flex flex-wrap justify-end gap-2">
      {forward ? (
        <Button type="button" size="sm" disabled={changeStatus.isPending} onClick={() => moveForward(forward.to)} aria-label={`${forward.label}: ${visit.patientName}`}>
          <forward.icon aria-hidden="true" />
          {forward.label}
        </Button>
      ) : null}
      {canCancel ? (
        <Button type="button" size="sm" variant="outline" disabled={changeStatus.isPending} onClick={() => setCancelling(true)} aria-label={`${v.cancel}: ${visit.patientName}`}>
          <XIcon aria-hidden="true" />
          {v.cancel}
        </Button>
      ) : null}
      <LoadWhenOpen open={cancelling}>
        <CancelVisitDialog visit={visit} open={cancelling} onOpenChange={setCancelling} />
      </LoadWhenOpen>
    </div>
  );
}
