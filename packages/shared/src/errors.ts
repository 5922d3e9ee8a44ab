import { z } from 'zod';
import { messages } from './messages.ts';

/** Every error code the API can answer with. */
export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'TWO_FACTOR_REQUIRED',
  'REAUTHENTICATION_REQUIRED',
  'FORBIDDEN',
  /** A write from another site's page (Origin / Sec-Fetch-Site): issue 12, item 14. */
  'CROSS_SITE_REFUSED',
  /** The caller's clinic is suspended, cancelled or past its trial: what its people may still do is in ADR 010. */
  'CLINIC_INACTIVE',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'VALIDATION',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  /** A body that is not JSON (nor multipart on an upload route). */
  'UNSUPPORTED_MEDIA_TYPE',
  'CONFLICT',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
  /** The payment provider did not answer, answered 5xx, or refused our credentials: nothing was charged (issue 14). */
  'PAYMENT_PROVIDER_UNAVAILABLE',
  /** The payment provider refused the operation (a declined card, an invalid field): its reason is in the message. */
  'PAYMENT_REJECTED',
  /**
   * An Idempotency-Key already used with another body (IETF draft-ietf-httpapi-idempotency-key-header: 422); the same
   * key while its first request is still running is a CONFLICT (409).
   */
  'IDEMPOTENCY_KEY_REUSED',
  /** The form's proof of work (captcha, ADR 029) is missing, wrong, expired or already used: solve a new one. */
  'CAPTCHA_FAILED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes our auth layer adds to better-auth's own answers (`{ code, message }` under /api/auth), which the web reads
 * to choose the pt-BR message of a sign-in.
 */
export const AUTH_ERROR_CODES = {
  /** Another clinic's account (or an admin) signing in on a clinic's site. */
  wrongClinic: 'WRONG_CLINIC',
  /** A right TOTP code that was already used once. */
  totpReused: 'TOTP_REUSED',
  /** An account that 'Desativar' closed. */
  accountDeactivated: 'ACCOUNT_DEACTIVATED',
  /** A passkey ceremony whose challenge is unknown, used or expired: start it again. */
  passkeyChallengeExpired: 'PASSKEY_CHALLENGE_EXPIRED',
  /** A credential this site does not know (removed, or never registered). */
  passkeyNotRecognized: 'PASSKEY_NOT_RECOGNIZED',
  /** A credential made for another site (relying party) than the one it is used on. */
  passkeyWrongDomain: 'PASSKEY_WRONG_DOMAIN',
  /** The authenticator's answer did not verify (signature, counter, user verification). */
  passkeyRefused: 'PASSKEY_REFUSED',
  /** The form's proof of work is missing, wrong, expired or already used (same as the API's CAPTCHA_FAILED). */
  captchaFailed: 'CAPTCHA_FAILED',
} as const;

/** The body of every API error: `{ error: { code, message } }`, message in pt-BR. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    errorId: z.string().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The error answers a route declares (for its OpenAPI document and output check): the same body for each status. */
export function errorResponses<Status extends number>(...statuses: Status[]): Record<Status, typeof errorResponseSchema> {
  // fromEntries cannot type its keys: every status given gets the schema, which is what the record type says.
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<Status, typeof errorResponseSchema>;
}

/** The default pt-BR message for a code. */
export function defaultErrorMessage(code: ErrorCode): string {
  return messages.errors[code];
}
