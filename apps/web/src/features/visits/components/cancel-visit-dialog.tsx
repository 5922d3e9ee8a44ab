import { visitStatusChangeSchema, type Visit, type VisitStatusChange } from '@carteirinha/shared/contracts/visits';
import { formatDateTime } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { SubmitButton } from '@/components/ui/submit-button';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/error-message';
import { toast } from '@/lib/toasts';
import { useChangeVisitStatus } from '../api/change-visit-status';

const v = messages.visitsScreen;

function CancelForm({ visit, onDone }: { visit: Visit; onDone: () => void }) {
  const changeStatus = useChangeVisitStatus();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<VisitStatusChange>({ resolver: zodResolver(visitStatusChangeSchema), defaultValues: { status: 'cancelado', reason: '' } });

  const onValid = async (change: VisitStatusChange) => {
    try {
      await changeStatus.mutateAsync({ visitId: visit.id, change });
      toast.success(v.canceled);
      onDone();
    } catch (error) {
      // Said under the reason, in the dialog the receptionist is looking at.
      setError('reason', { message: formatMessage(v.moveError, { message: errorMessage(error) }) });
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(onValid)(event)} noValidate className="grid gap-4">
      <FormField label={v.cancelReasonLabel} error={errors.reason?.message}>
        {(field) => <Textarea {...field} maxLength={300} {...register('reason')} />}
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          {v.keep}
        </Button>
        <SubmitButton pending={isSubmitting} pendingLabel={messages.common.saving} variant="destructive">
          {v.cancelConfirm}
        </SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** 'Cancelar atendimento': the visit stays in the list, cancelled, with the reason given here (required). */
export function CancelVisitDialog({ visit, open, onOpenChange }: { visit: Visit; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{v.cancelTitle}</DialogTitle>
          <DialogDescription>{formatMessage(v.cancelDescription, { name: visit.patientName, date: formatDateTime(visit.performedAt) })}</DialogDescription>
        </DialogHeader>
        {open ? <CancelForm visit={visit} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
