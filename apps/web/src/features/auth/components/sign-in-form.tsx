import { signInSchema, type SignInInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { authClient } from '@/lib/auth-client';
import { isNetworkFailure, signInErrorMessage } from '../lib/auth-errors';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { useEnterPortal } from '../lib/use-enter-portal';
import { ForgotPasswordDialog } from './forgot-password-dialog';

const FIELD_ORDER = ['email', 'password'] as const;

/** Returns whether the session was created; failures are reported in a toast. */
async function signIn({ email, password }: SignInInput): Promise<boolean> {
  try {
    const { error } = await authClient.signIn.email({ email, password });
    if (!error) return true;
    toast.error(messages.auth.signInErrorTitle, { description: signInErrorMessage(error) });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    toast.error(messages.auth.signInErrorTitle, { description: messages.common.networkError });
  }
  return false;
}

/** The "Entrar" tab of /auth (specification §2, §5, §8). */
export function SignInForm() {
  const enterPortal = useEnterPortal();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signInSchema), defaultValues: { email: '', password: '' } });

  const onValid = async (values: SignInInput) => {
    if (!(await signIn(values))) return;
    toast.success(messages.auth.signInSuccessTitle, { description: messages.auth.redirecting });
    await enterPortal();
  };

  return (
    <div className="grid gap-4">
      <form
        noValidate
        aria-label="Entrar"
        className="grid gap-4"
        onSubmit={handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER))}
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="seu@email.com"
          aria-invalid={errors.email ? true : undefined}
          {...register('email')}
        />
        <TextField
          label="Senha"
          type="password"
          autoComplete="current-password"
          aria-invalid={errors.password ? true : undefined}
          {...register('password')}
        />
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? messages.auth.signingIn : 'Entrar'}
        </Button>
      </form>
      <ForgotPasswordDialog />
    </div>
  );
}
