import { formatMessage, messages } from '@carteirinha/shared/messages';
import { errorMessage } from './error-message';
import { toast } from './toasts';

type PlanSave<Values> = {
  /** The plan being edited, or null when the dialog creates one. */
  planId: string | null;
  create: (values: Values) => Promise<unknown>;
  update: (input: { id: string; data: Values }) => Promise<unknown>;
  onSaved: () => void;
};

/**
 * Saves a plan from a form dialog, the platform's plans and a clinic's alike: creates or updates it, says so in a
 * toast and calls `onSaved`. A failed save is logged and told in a toast, and the dialog stays open (specification §8).
 */
export async function savePlan<Values>(values: Values, { planId, create, update, onSaved }: PlanSave<Values>): Promise<void> {
  try {
    if (planId) {
      await update({ id: planId, data: values });
      toast.success(messages.admin.planUpdated);
    } else {
      await create(values);
      toast.success(messages.admin.planCreated);
    }
    onSaved();
  } catch (error) {
    console.warn('Falha ao salvar o plano', error);
    const template = planId ? messages.admin.planUpdateError : messages.admin.planCreateError;
    toast.error(formatMessage(template, { message: errorMessage(error) }));
  }
}
