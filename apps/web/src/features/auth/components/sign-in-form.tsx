import { signInSchema, type SignInInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { Suspense, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { LoadWhenOpen } from '@/components/load-when-open';
import { Button } from '@/components/ui/button';
import { CenteredSpinner } from '@/components/ui/spinner';
import { SubmitButton } from '@/components/ui/submit-button';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { lazyComponent } from '@/lib/lazy-component';
import { isNetworkFailure, signInErrorMessage } from '../lib/auth-errors';
import { toast, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { PasskeySignInButton } from '@/features/passkeys/components/passkey-sign-in-button';
import { isCaptchaRefusal, useCaptcha } from '../lib/use-captcha';
import { useEnterPortal } from '../lib/use-enter-portal';
import { EmailField, PasswordField } from './credential-fields';
import { GoogleSignInButton } from './google-sign-in-button';

// Only some sign-ins need them: loaded when the code is asked for, or 'Esqueceu a senha?' is pressed.
const TwoFactorChallenge = lazyComponent(() => import('@/features/two-factor/components/two-factor-challenge'), (m) => m.TwoFactorChallenge);
const ForgotPasswordDialog = lazyComponent(() => import('./forgot-password-dialog'), (m) => m.ForgotPasswordDialog);

const FIELD_ORDER = ['email', 'password'] as const;

type SignInOutcome = 'signed-in' | 'two-factor' | 'failed';

/** Signs in; an account with two-factor still owes a code. Failures are reported in a toast. */
async function signIn({ email, password }: SignInInput, headers: Record<string, string> | undefined): Promise<SignInOutcome> {
  try {
    const { data, error } = await authClient.signIn.email({ email, password, fetchOptions: { headers } });
    if (!error) return data && 'twoFactorRedirect' in data && data.twoFactorRedirect ? 'two-factor' : 'signed-in';
    toast.error(messages.auth.signInErrorTitle, { description: isCaptchaRefusal(error) ? messages.errors.CAPTCHA_FAILED : signInErrorMessage(error) });
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
  const [forgotOpen, setForgotOpen] = useState(false);
  // Solved in the background as the form opens: the server asks for it only once an address keeps failing, and a
  // person behind the same address as a guesser then signs in without an extra step.
  const captcha = useCaptcha();
  const {
    register,
    handleSubmit,
    getValues,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signInSchema), defaultValues: draft ?? { email: '', password: '' } });
  useDismissValidationToastWhenValid(errors);
  useEffect(() => () => onLeave?.(getValues()), [onLeave, getValues]);

  const welcome = async () => {
    toast.success(messages.auth.signInSuccessTitle, { description: messages.auth.redirecting });
    await enterPortal();
  };

  const onValid = async (values: SignInInput) => {
    const outcome = await signIn(values, await captcha.headersForSubmit());
    captcha.renew();
    if (outcome === 'two-factor') setAwaitingCode(true);
    if (outcome === 'signed-in') await welcome();
  };

  if (awaitingCode) {
    return (
      <Suspense fallback={<CenteredSpinner />}>
        <TwoFactorChallenge onVerified={welcome} onRestart={() => setAwaitingCode(false)} />
      </Suspense>
    );
  }

  return (
    <div className="grid gap-4">
      <PasskeySignInButton onSignedIn={welcome} onUsePassword={() => setFocus('email')} />
      <p className="text-center text-sm text-muted-foreground">{messages.passkeys.orPassword}</p>
      <form
        noValidate
        aria-label="Entrar"
        className="grid gap-4"
        onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER)))}
      >
        <EmailField invalid={errors.email !== undefined} {...register('email')} />
        <PasswordField autoComplete="current-password" invalid={errors.password !== undefined} {...register('password')} />
        {captcha.field}
        <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={messages.auth.signingIn}>
          Entrar
        </SubmitButton>
      </form>
      <GoogleSignInButton />
      <Button
        type="button"
        variant="link"
        className="h-auto justify-self-center p-0"
        aria-haspopup="dialog"
        aria-expanded={forgotOpen}
        onClick={() => setForgotOpen(true)}
      >
        Esqueceu a senha?
      </Button>
      <LoadWhenOpen open={forgotOpen}>
        <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
      </LoadWhenOpen>
    </div>
  );
}
