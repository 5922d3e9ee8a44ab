import { messages } from '@carteirinha/shared/messages';
import { Button } from './button';
import { DialogFooter } from './dialog';
import { SubmitButton } from './submit-button';

type FormDialogFooterProps = {
  /** The form is being saved. */
  pending: boolean;
  onCancel: () => void;
};

/** 'Cancelar' and 'Salvar' at the foot of a form inside a dialog; put it inside the `<form>`. */
export function FormDialogFooter({ pending, onCancel }: FormDialogFooterProps) {
  return (
    <DialogFooter>
      <Button type="button" variant="outline" onClick={onCancel}>
        {messages.common.cancel}
      </Button>
      <SubmitButton pending={pending} pendingLabel={messages.common.saving}>
        {messages.common.save}
      </SubmitButton>
    </DialogFooter>
  );
}
