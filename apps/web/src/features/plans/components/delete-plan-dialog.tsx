import type { PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { messages } from '@carteirinha/shared/messages';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { useDeletePlan } from '../api/delete-plan';

type DeletePlanDialogProps = {
  /** The plan to delete; null keeps the dialog closed. */
  plan: PlatformPlanRecord | null;
  onClose: () => void;
};

/** 'Confirmar Exclusão' with the plan's name. A plan that clinics are on is refused by the server (409). */
export function DeletePlanDialog({ plan, onClose }: DeletePlanDialogProps) {
  const deletePlan = useDeletePlan();
  return (
    <ConfirmDeleteDialog
      item={plan}
      subject={messages.adminPlans.deleteSubject}
      onConfirm={(item) => deletePlan.mutateAsync(item.id)}
      pending={deletePlan.isPending}
      successMessage={messages.admin.planDeleted}
      errorTemplate={messages.admin.planDeleteError}
      onClose={onClose}
    />
  );
}
