import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/error-message';
import { useDeleteClinic } from '../api/delete-clinic';

type DeleteClinicDialogProps = {
  /** The clinic to delete; null keeps the dialog closed. */
  clinic: AdminClinic | null;
  onClose: () => void;
};

/**
 * 'Confirmar Exclusão' (specification §2). The server refuses a clinic with patients or payments (409); its message
 * goes in the error toast and the clinic stays.
 */
export function DeleteClinicDialog({ clinic, onClose }: DeleteClinicDialogProps) {
  const deleteClinic = useDeleteClinic();

  const confirm = async () => {
    if (!clinic) return;
    try {
      await deleteClinic.mutateAsync(clinic.id);
      toast.success(messages.admin.clinicDeleted);
    } catch (error) {
      console.warn('Falha ao excluir a clínica', error);
      toast.error(formatMessage(messages.admin.clinicDeleteError, { message: errorMessage(error) }));
    }
    onClose();
  };

  return (
    <AlertDialog open={clinic !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Confirmar Exclusão</AlertDialogTitle>
          <AlertDialogDescription>
            Tem certeza que deseja excluir a clínica <strong className="font-semibold text-foreground">{clinic?.name}</strong>? Esta ação não pode
            ser desfeita.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleteClinic.isPending}>Cancelar</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={deleteClinic.isPending} onClick={confirm}>
            Excluir
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
