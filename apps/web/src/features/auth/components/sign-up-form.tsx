import { signUpSchemaFor, type SignUpInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextField } from '@/components/ui/text-field';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { isNetworkFailure, signUpErrorMessage } from '../lib/auth-errors';
import { toast, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { useCaptcha } from '../lib/use-captcha';
import { useEnterPortal } from '../lib/use-enter-portal';
import { EmailField, PasswordField } from './credential-fields';

const FIELD_ORDER = ['fullName', 'email', 'password'] as const;

/** Returns whether the account was created (and, with auto sign-in, the session too). */
async function signUp({ fullName, email, password }: SignUpInput, headers: Record<string, string> | undefined): Promise<boolean> {
  try {
    const { error } = await authClient.signUp.email({ name: fullName, email, password, fetchOptions: { headers } });
    if (!error) return true;
    toast.error(messages.auth.signUpErrorTitle, { description: signUpErrorMessage(error) });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    toast.error(messages.auth.signUpErrorTitle, { description: messages.common.networkError });
  }
  return false;
}

type SignUpFormProps = {
  /** What was typed before the tab was left, to fill the form again. */
  draft?: SignUpInput;
  /** Takes what is typed when the form goes (its tab closes). Must keep its identity between renders. */
  onLeave?: (values: SignUpInput) => void;
};

/** The "Cadastrar" tab of /auth (specification §2, §5, §8). */
export function SignUpForm({ draft, onLeave }: SignUpFormProps = {}) {
  const enterPortal = useEnterPortal();
  // The minimum of admin Configurações; until /api/tenant answers, the specification's (the server checks anyway).
  const passwordMinLength = useTenant().data?.passwordMinLength;
  const schema = useMemo(() => signUpSchemaFor(passwordMinLength), [passwordMinLength]);
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: draft ?? { fullName: '', email: '', password: '' } });
  useDismissValidationToastWhenValid(errors);
  useEffect(() => () => onLeave?.(getValues()), [onLeave, getValues]);
  const captcha = useCaptcha();

  const onValid = async (values: SignUpInput) => {
    const signedUp = await signUp(values, await captcha.headersForSubmit());
    captcha.renew();
    if (!signedUp) return;
    const welcome = toast.success(messages.auth.signUpSuccessTitle, { description: messages.auth.redirecting });
    if (await enterPortal()) return;
    // The server answers a registered address as a new one and e-mails its owner: no session means just that.
    toast.dismiss(welcome);
    toast.info(messages.auth.signUpCheckEmailTitle, { description: messages.auth.signUpCheckEmail });
  };

  return (
    <form
      noValidate
      aria-label="Cadastrar"
      className="grid gap-4"
      onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER)))}
    >
      <TextField
        label="Nome Completo"
        autoComplete="name"
        placeholder="Seu nome completo"
        aria-invalid={errors.fullName ? true : undefined}
        {...register('fullName')}
      />
      <EmailField invalid={errors.email !== undefined} {...register('email')} />
      <PasswordField autoComplete="new-password" invalid={errors.password !== undefined} {...register('password')} />
      {captcha.field}
      <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={messages.auth.signingUp}>
        Cadastrar
      </SubmitButton>
    </form>
  );
}
