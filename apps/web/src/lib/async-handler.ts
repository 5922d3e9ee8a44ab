import { toast } from 'sonner';
import { errorMessage } from './error-message';

/**
 * An async function as a React event handler (`onSubmit`, `onClick`). React drops what a handler returns, so a
 * rejected promise would be an unhandled rejection nobody sees, and the form would just sit there. Each handler reports
 * the failures it expects itself (a toast, the form's message); this catches any other, logs it and tells the user in
 * the same words as a failed request, and hands React the `void` it expects.
 */
export function asyncHandler<Args extends unknown[]>(handler: (...args: Args) => Promise<unknown>): (...args: Args) => void {
  return (...args) => {
    handler(...args).catch((error: unknown) => {
      console.error('Falha não tratada em uma ação da página', error);
      toast.error(errorMessage(error));
    });
  };
}
