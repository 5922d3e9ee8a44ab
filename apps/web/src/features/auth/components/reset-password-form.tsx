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
import { authServerMessage, isNetworkFailure, type AuthClientError } from '../lib/auth-errors';
import { acrossPageChange, useDismissValidationToastWhenValid } from '@/lib/toasts';
import { toastFirstValidationError } from '../lib/toast-validation-error';
import { PasswordField } from './credential-fields';

const FIELD_ORDER = ['password', 'confirmPassword'] as const;
const REJECTED_TOKEN_CODES = new Set(['INVALID_TOKEN', 'TOKEN_EXPIRED']);

export type ResetOutcome = 'done' | 'token-rejected' | 'failed';

function isTokenRejection(error: AuthClientError): boolean {
  return error.code !== undefined && REJECTED_TOKEN_CODES.has(error.code);
}

/** Sets the password of a reset or invitation link; failures other than a refused token are reported in a toast. */
export async function resetPassword(token: string, newPassword: string): Promise<ResetOutcome> {
  try {
    const { error } = await authClient.resetPassword({ newPassword, token });
    if (!error) return 'done';
    if (isTokenRejection(error)) return 'token-rejected';
    toast.error(messages.auth.resetErrorTitle, { description: authServerMessage(error) });
  } catch (error) {
    if (!isNetworkFailure(error)) throw error;
    toast.error(messages.auth.resetErrorTitle, { description: messages.common.networkError });
  }
  return 'failed';
}

type ResetPasswordFormProps = {
  token: string;
  /** The link's token was refused (used, expired or forged): the page then asks for a new link. */
  onTokenRejected: () => void;
};

export function ResetPasswordForm({ token, onTokenRejected }: ResetPasswordFormProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // The minimum of admin Configurações; until /api/tenant answers, the specification's (the server checks anyway).
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
    // The server ends every session of the account on a reset, so nothing cached about the user is true any more.
    queryClient.clear();
    // Meant for the sign-in page it opens: a plain toast would go with the page change (lib/toasts).
    toast.success(messages.auth.resetDoneTitle, { id: acrossPageChange('password-reset'), description: messages.auth.resetDone });
    await navigate('/auth', { replace: true });
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={asyncHandler(handleSubmit(onValid, (formErrors) => toastFirstValidationError(formErrors, FIELD_ORDER)))}
    >
      <PasswordField label="Nova senha" autoComplete="new-password" invalid={errors.password !== undefined} {...register('password')} />
      <PasswordField label="Confirmar senha" autoComplete="new-password" invalid={errors.confirmPassword !== undefined} {...register('confirmPassword')} />
      <SubmitButton className="w-full" pending={isSubmitting} pendingLabel={messages.auth.resetting}>
        Redefinir senha
      </SubmitButton>
    </form>
  );
}
