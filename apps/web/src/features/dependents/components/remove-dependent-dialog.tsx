import type { Dependent, DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog';
import { toast } from '@/lib/toasts';
import { useRemoveDependent } from '../api/dependents';
import { priceChangeText } from '../lib/price-change';

const m = messages.dependents;

/** 'Remover': the card stops at once and the new price is said before the patient confirms. */
export function RemoveDependentDialog({ dependent, overview, onClose }: { dependent: Dependent | null; overview: DependentsOverview; onClose: () => void }) {
  const removeDependent = useRemoveDependent();
  const name = dependent?.fullName ?? '';
  return (
    <ConfirmActionDialog
      open={dependent !== null}
      title={formatMessage(m.removeTitle, { name })}
      description={formatMessage(m.removeBody, { name })}
      cancelLabel={m.cancel}
      confirmLabel={m.confirmRemove}
      onConfirm={async () => {
        if (!dependent) return;
        await removeDependent.mutateAsync(dependent.id);
        toast.success(m.removed);
      }}
      onClose={onClose}
    >
      <p className="text-sm" data-testid="dependent-price-change">
        {priceChangeText(overview, 'remove')}
      </p>
    </ConfirmActionDialog>
  );
}
