import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { messages } from '@carteirinha/shared/messages';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
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
  return (
    <ConfirmDeleteDialog
      item={clinic}
      subject={messages.adminClinics.deleteSubject}
      onConfirm={(item) => deleteClinic.mutateAsync(item.id)}
      pending={deleteClinic.isPending}
      successMessage={messages.admin.clinicDeleted}
      errorTemplate={messages.admin.clinicDeleteError}
      onClose={onClose}
    />
  );
}
