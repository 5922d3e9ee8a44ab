import type { NetworkPlace } from '@carteirinha/shared/contracts/network';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ConfirmActionDialog } from '@/components/ui/confirm-action-dialog';
import { toast } from '@/lib/toasts';
import { useRemovePlace } from '../api/clinic-network';

const m = messages.network;

/** 'Excluir' a place, after a confirmation; a refusal stays in the dialog. */
export function DeletePlaceDialog({ place, onClose }: { place: NetworkPlace | null; onClose: () => void }) {
  const removePlace = useRemovePlace();
  return (
    <ConfirmActionDialog
      open={place !== null}
      title={formatMessage(m.deleteTitle, { name: place?.name ?? '' })}
      description={m.deleteDescription}
      cancelLabel={messages.common.cancel}
      confirmLabel={m.delete}
      onConfirm={async () => {
        if (!place) return;
        await removePlace.mutateAsync(place.id);
        toast.success(m.deleted);
      }}
      refusalOf={(message) => formatMessage(m.deleteError, { message })}
      onClose={onClose}
    />
  );
}
