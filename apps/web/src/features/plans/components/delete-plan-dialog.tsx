import type { PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
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
import { useDeletePlan } from '../api/delete-plan';

type DeletePlanDialogProps = {
  /** The plan to delete; null keeps the dialog closed. */
  plan: PlatformPlanRecord | null;
  onClose: () => void;
};

/** 'Confirmar Exclusão' with the plan's name. A plan that clinics are on is refused by the server (409). */
export function DeletePlanDialog({ plan, onClose }: DeletePlanDialogProps) {
  const deletePlan = useDeletePlan();

  const confirm = async () => {
    if (!plan) return;
    try {
      await deletePlan.mutateAsync(plan.id);
      toast.success(messages.admin.planDeleted);
    } catch (error) {
      console.warn('Falha ao excluir o plano', error);
      toast.error(formatMessage(messages.admin.planDeleteError, { message: errorMessage(error) }));
    }
    onClose();
  };

  return (
    <AlertDialog open={plan !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Confirmar Exclusão</AlertDialogTitle>
          <AlertDialogDescription>
            Tem certeza que deseja excluir o plano <strong className="font-semibold text-foreground">{plan?.name}</strong>? Esta ação não pode ser
            desfeita.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deletePlan.isPending}>Cancelar</AlertDialogCancel>
          {/* A plain button, not AlertDialogAction: the dialog stays open until the server has answered. */}
          <Button variant="destructive" disabled={deletePlan.isPending} onClick={confirm}>
            Excluir
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
