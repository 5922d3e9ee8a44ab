import { forgotPasswordSchema, type ForgotPasswordInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SubmitButton } from '@/components/ui/submit-button';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { authServerMessage, isNetworkFailure } from '../lib/auth-errors';
import { toast, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { isCaptchaRefusal, useCaptcha } from '../lib/use-captcha';
import { EmailField } from './credential-fields';

/** Where the e-mailed link lands; the server builds the link to the same page. */
const RESET_PAGE_PATH = '/auth/redefinir-senha';

/**
 * Asks for a reset link. The answer is the same whether or not the e-mail has an account, so the form cannot be used
 * to find out who is registered; only a rate limit or a network failure is reported as an error.
 */
async function requestPasswordReset({ email }: ForgotPasswordInput, headers: Record<string, string> | undefined): Promise<boolean> {
  try {
    const { error } = await authClient.requestPasswordReset({ email, redirectTo: RESET_PAGE_PATH, fetchOptions: { headers } });
    if (error && (error.status === 429 || isCaptchaRefusal(error))) {
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
  const captcha = useCaptcha();

  const onValid = async (values: ForgotPasswordInput) => {
    const sent = await requestPasswordReset(values, await captcha.headersForSubmit());
    captcha.renew();
    if (sent) onSent();
  };

  return (
    <form noValidate className="grid gap-4" onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, ['email'])))}>
      <EmailField invalid={errors.email !== undefined} {...register('email')} />
      {captcha.field}
      <DialogFooter>
        <SubmitButton pending={isSubmitting} pendingLabel={messages.common.sending}>
          Enviar link
        </SubmitButton>
      </DialogFooter>
    </form>
  );
}

/** What "Esqueceu a senha?" under the sign-in form opens (loaded with its first opening, sign-in-form.tsx). */
export function ForgotPasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Recuperar senha</DialogTitle>
          <DialogDescription>Informe seu email e enviaremos um link para você criar uma nova senha.</DialogDescription>
        </DialogHeader>
        <ForgotPasswordForm onSent={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
