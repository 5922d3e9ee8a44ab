import { signInSchema, type SignInInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/ui/submit-button';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { TwoFactorChallenge } from '@/features/two-factor/components/two-factor-challenge';
import { isNetworkFailure, signInErrorMessage } from '../lib/auth-errors';
import { useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { useEnterPortal } from '../lib/use-enter-portal';
import { EmailField, PasswordField } from './credential-fields';
import { ForgotPasswordDialog } from './forgot-password-dialog';
import { GoogleSignInButton } from './google-sign-in-button';

const FIELD_ORDER = ['email', 'password'] as const;

type SignInOutcome = 'signed-in' | 'two-factor' | 'failed';

/** Signs in; an account with two-factor still owes a code. Failures are reported in a toast. */
async function signIn({ email, password }: SignInInput): Promise<SignInOutcome> {
  try {
    const { data, error } = await authClient.signIn.email({ email, password });
    if (!error) return data && 'twoFactorRedirect' in data && data.twoFactorRedirect ? 'two-factor' : 'signed-in';
    toast.error(messages.auth.signInErrorTitle, { description: signInErrorMessage(error) });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    toast.error(messages.auth.signInErrorTitle, { description: messages.common.networkError });
  }
  return 'failed';
}

type SignInFormProps = {
  /** What was typed before the tab was left, to fill the form again. */
  draft?: SignInInput;
  /** Takes what is typed when the form goes (its tab closes). Must keep its identity between renders. */
  onLeave?: (values: SignInInput) => void;
};

/** The "Entrar" tab of /auth (specification §2, §5, §8). */
export function SignInForm({ draft, onLeave }: SignInFormProps = {}) {
  const enterPortal = useEnterPortal();
  const [awaitingCode, setAwaitingCode] = useState(false);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signInSchema), defaultValues: draft ?? { email: '', password: '' } });
  useDismissValidationToastWhenValid(errors);
  useEffect(() => () => onLeave?.(getValues()), [onLeave, getValues]);

  const welcome = async () => {
    toast.success(messages.auth.signInSuccessTitle, { description: messages.auth.redirecting });
    await enterPortal();
  };

  const onValid = async (values: SignInInput) => {
    const outcome = await signIn(values);
    if (outcome === 'two-factor') setAwaitingCode(true);
    if (outcome === 'signed-in') await welcome();
  };

  if (awaitingCode) return <TwoFactorChallenge onVerified={welcome} onRestart={() => setAwaitingCode(false)} />;

  return (
    <div className="grid gap-4">
      <form
        noValidate
        aria-label="Entrar"
        className="grid gap-4"
        onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER)))}
      >
        <EmailField invalid={errors.email !== undefined} {...register('email')} />
        <PasswordField autoComplete="current-password" invalid={errors.password !== undefined} {...register('password')} />
        <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={messages.auth.signingIn}>
          Entrar
        </SubmitButton>
      </form>
      <GoogleSignInButton />
      <ForgotPasswordDialog />
    </div>
  );
}
