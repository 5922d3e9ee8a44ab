import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/error-message';
import { useApproveClinic } from '../api/approve-clinic';

/** A clinic waiting for the admin's approval, as the dashboard's alerts name it. */
export type PendingRegistration = {
  clinicId: string;
  clinicName: string;
  /** When its trial ends; null if unknown. */
  date: string | null;
};

type ApproveRegistrationsDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** undefined while the list loads. */
  pending: PendingRegistration[] | undefined;
};

/** 'Aprovar Cadastro': each clinic awaiting approval, with a button that turns its trial into an active clinic. */
export function ApproveRegistrationsDialog({ open, onOpenChange, pending }: ApproveRegistrationsDialogProps) {
  const approveClinic = useApproveClinic();

  const approve = async (registration: PendingRegistration) => {
    try {
      await approveClinic.mutateAsync(registration.clinicId);
      toast.success(messages.admin.registrationApproved);
    } catch (error) {
      console.warn('Falha ao aprovar o cadastro', error);
      toast.error(formatMessage(messages.admin.registrationApproveError, { message: errorMessage(error) }));
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Aprovar Cadastro</DialogTitle>
          <DialogDescription>Clínicas em trial que aguardam aprovação para ficarem ativas.</DialogDescription>
        </DialogHeader>
        {pending === undefined ? null : pending.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhum cadastro aguardando aprovação</p>
        ) : (
          <ul className="divide-y" aria-label="Cadastros aguardando aprovação">
            {pending.map((registration) => (
              <li key={registration.clinicId} className="flex items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium">{registration.clinicName}</p>
                  {registration.date ? <p className="text-xs text-muted-foreground">Trial até {formatDate(registration.date)}</p> : null}
                </div>
                <Button
                  size="sm"
                  disabled={approveClinic.isPending && approveClinic.variables === registration.clinicId}
                  onClick={() => approve(registration)}
                >
                  Aprovar<span className="sr-only"> {registration.clinicName}</span>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </DialogContent>
    </Dialog>
  );
}
