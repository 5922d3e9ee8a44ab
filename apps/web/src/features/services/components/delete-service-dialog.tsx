import type { Service } from '@carteirinha/shared/contracts/services';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog';
import { toast } from '@/lib/toasts';
import { useRemoveService } from '../api/save-service';

const m = messages.services;

/**
 * 'Excluir' a service: the server deletes one no visit used and archives one that visits used (it leaves the price
 * table and stays in the visits' record); the toast says which. A refusal stays in the dialog.
 */
export function DeleteServiceDialog({ service, onClose }: { service: Service | null; onClose: () => void }) {
  const removeService = useRemoveService();
  return (
    <ConfirmActionDialog
      open={service !== null}
      title={formatMessage(m.deleteTitle, { name: service?.name ?? '' })}
      description={m.deleteDescription}
      cancelLabel={messages.common.cancel}
      confirmLabel={m.delete}
      onConfirm={async () => {
        if (!service) return;
        const { outcome } = await removeService.mutateAsync(service.id);
        toast.success(outcome === 'archived' ? m.archivedToast : m.deleted);
      }}
      refusalOf={(message) => formatMessage(m.deleteError, { message })}
      onClose={onClose}
    />
  );
}
