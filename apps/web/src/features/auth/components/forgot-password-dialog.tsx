import { forgotPasswordSchema, type ForgotPasswordInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { SubmitButton } from '@/components/ui/submit-button';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { authServerMessage, isNetworkFailure } from '../lib/auth-errors';
import { useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { EmailField } from './credential-fields';

/** Where the e-mailed link lands; the server builds the link to the same page. */
const RESET_PAGE_PATH = '/auth/redefinir-senha';

/**
 * Asks for a reset link. The answer is the same whether or not the e-mail has an account, so the form cannot be used
 * to find out who is registered; only a rate limit or a network failure is reported as an error.
 */
async function requestPasswordReset({ email }: ForgotPasswordInput): Promise<boolean> {
  try {
    const { error } = await authClient.requestPasswordReset({ email, redirectTo: RESET_PAGE_PATH });
    if (error?.status === 429) {
      toast.error(messages.auth.resetRequestErrorTitle, { description: authServerMessage(error) });
      return false;
    }
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    toast.error(messages.auth.resetRequestErrorTitle, { description: messages.common.networkError });
    return false;
  }
  toast.success(messages.auth.resetRequestedTitle, { description: messages.auth.resetRequested });
  return true;
}

function ForgotPasswordForm({ onSent }: { onSent: () => void }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });
  useDismissValidationToastWhenValid(errors);

  const onValid = async (values: ForgotPasswordInput) => {
    if (await requestPasswordReset(values)) onSent();
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, ['email'])))}>
      <EmailField invalid={errors.email !== undefined} {...register('email')} />
      <DialogFooter>
        <SubmitButton pending={isSubmitting} pendingLabel={messages.common.sending}>
          Enviar link
        </SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** "Esqueceu a senha?" under the sign-in form. */
export function ForgotPasswordDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="link" className="h-auto justify-self-center p-0">
          Esqueceu a senha?
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Recuperar senha</DialogTitle>
          <DialogDescription>Informe seu email e enviaremos um link para você criar uma nova senha.</DialogDescription>
        </DialogHeader>
        <ForgotPasswordForm onSent={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
