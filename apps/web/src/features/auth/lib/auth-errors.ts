import { AUTH_ERROR_CODES, errorResponseSchema } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';

/** What better-auth's client returns as `error`: the JSON body of the failed answer plus the HTTP status. */
export type AuthClientError = {
  status: number;
  code?: string | undefined;
  message?: string | undefined;
};

const USER_EXISTS_CODES = new Set(['USER_ALREADY_EXISTS', 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL']);

/** better-auth answers in English; the codes a user can cause get our pt-BR wording. */
const PT_BR_BY_CODE: Record<string, string> = {
  INVALID_EMAIL: messages.validation.invalidEmail,
  PASSWORD_TOO_SHORT: messages.validation.passwordMin,
  PASSWORD_TOO_LONG: messages.validation.passwordMax,
  INVALID_TOKEN: messages.auth.resetInvalidToken,
  TOKEN_EXPIRED: messages.auth.resetInvalidToken,
};

/**
 * The message to show for an auth error that has no special case: our own API's pt-BR message (rate limits and the
 * like come from our Fastify layer as `{ error: { code, message } }`), then a translated better-auth code, then the
 * server's text as it is.
 */
export function authServerMessage(error: AuthClientError): string {
  if (error.status === 429) return messages.auth.tooManyAttempts;
  const ours = errorResponseSchema.safeParse(error);
  if (ours.success) return ours.data.error.message;
  const translated = error.code ? PT_BR_BY_CODE[error.code] : undefined;
  return translated ?? error.message ?? messages.errors.INTERNAL;
}

/**
 * Specification §8: wrong credentials read "Email ou senha incorretos"; an account of another clinic, on a clinic's
 * host, is told to sign in on its own clinic's site; a deactivated account is told so; anything else shows the
 * server's message.
 */
export function signInErrorMessage(error: AuthClientError): string {
  if (error.status === 429) return messages.auth.tooManyAttempts;
  if (error.code === AUTH_ERROR_CODES.wrongClinic) return messages.tenancy.wrongClinic;
  if (error.code === AUTH_ERROR_CODES.accountDeactivated) return messages.adminUsers.accountDeactivated;
  if (error.code === 'INVALID_EMAIL_OR_PASSWORD' || error.status === 401) return messages.auth.invalidCredentials;
  return authServerMessage(error);
}

/** Specification §8: an e-mail already in use reads "Este email já está cadastrado". */
export function signUpErrorMessage(error: AuthClientError): string {
  if (error.status === 429) return messages.auth.tooManyAttempts;
  const codeSaysTaken = error.code !== undefined && USER_EXISTS_CODES.has(error.code);
  const messageSaysTaken = error.status === 422 && /already/i.test(error.message ?? '');
  if (codeSaysTaken || messageSaysTaken) return messages.auth.emailTaken;
  return authServerMessage(error);
}

/** A request that never reached the server (offline, DNS, CORS) rejects with a TypeError from fetch. */
export function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}
