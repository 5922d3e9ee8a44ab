import { resetPasswordSchemaFor, type ResetPasswordInput } from '@carteirinha/shared/contracts/auth';
import { messages } from '@carteirinha/shared/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { SubmitButton } from '@/components/ui/submit-button';
import { useTenant } from '@/features/tenancy/api/get-tenant';
import { asyncHandler } from '@/lib/async-handler';
import { authClient } from '@/lib/auth-client';
import { acrossPageChange, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { useEnterPortal } from '../lib/use-enter-portal';
import { PasswordField } from './credential-fields';
import { resetPassword } from './reset-password-form';

const FIELD_ORDER = ['password', 'confirmPassword'] as const;

/** Signs in with the password just made; false when it could not (the person then signs in on /auth). */
async function signInOnce(email: string, password: string): Promise<boolean> {
  try {
    const { data, error } = await authClient.signIn.email({ email, password });
    return !error && !(data && 'twoFactorRedirect' in data && data.twoFactorRedirect);
  } catch {
    return false;
  }
}

type AcceptInvitationFormProps = {
  token: string;
  email: string;
  /** The link's token was refused (used, expired or forged): the page then asks for a new link. */
  onTokenRejected: () => void;
};

/**
 * 'Criar senha' of an invitation: the password rules of sign-up (the minimum of admin Configurações), set through the
 * link's token; then the person is signed in and taken to their portal.
 */
export function AcceptInvitationForm({ token, email, onTokenRejected }: AcceptInvitationFormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const enterPortal = useEnterPortal();
  const passwordMinLength = useTenant().data?.passwordMinLength;
  const schema = useMemo(() => resetPasswordSchemaFor(passwordMinLength), [passwordMinLength]);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { password: '', confirmPassword: '' } });
  useDismissValidationToastWhenValid(errors);

  const onValid = async ({ password }: ResetPasswordInput) => {
    const outcome = await resetPassword(token, password);
    if (outcome === 'token-rejected') onTokenRejected();
    if (outcome !== 'done') return;
    queryClient.clear();
    const created = { id: acrossPageChange('password-created'), description: messages.auth.redirecting };
    if ((await signInOnce(email, password)) && (await enterPortal())) {
      toast.success(messages.auth.passwordCreatedTitle, created);
      return;
    }
    toast.success(messages.auth.passwordCreatedTitle, { ...created, description: messages.auth.resetDone });
    await navigate('/auth', { replace: true });
  };

  return (
    <form
      noValidate
      aria-label={messages.auth.createPassword}
      className="grid gap-4"
      onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER)))}
    >
      {/* For password managers: the account the new password belongs to. */}
      <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
      <PasswordField label="Senha" autoComplete="new-password" invalid={errors.password !== undefined} {...register('password')} />
      <PasswordField label="Confirmar senha" autoComplete="new-password" invalid={errors.confirmPassword !== undefined} {...register('confirmPassword')} />
      <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={messages.auth.creatingPassword}>
        {messages.auth.createPassword}
      </SubmitButton>
    </form>
  );
}
