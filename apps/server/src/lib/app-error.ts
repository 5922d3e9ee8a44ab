import { defaultErrorMessage, type ErrorCode } from '@carteirinha/shared/errors';

const STATUS_OF_CODE: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  SESSION_EXPIRED: 401,
  TWO_FACTOR_REQUIRED: 403,
  REAUTHENTICATION_REQUIRED: 403,
  FORBIDDEN: 403,
  CROSS_SITE_REFUSED: 403,
  CLINIC_INACTIVE: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  VALIDATION: 400,
  RATE_LIMITED: 429,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CONFLICT: 409,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  PAYMENT_PROVIDER_UNAVAILABLE: 503,
  PAYMENT_REJECTED: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  CAPTCHA_FAILED: 400,
};

/** The one error type services throw; the error handler turns it into `{ error: { code, message } }`. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string = defaultErrorMessage(code),
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = STATUS_OF_CODE[code];
  }
}

export function statusOfCode(code: ErrorCode): number {
  return STATUS_OF_CODE[code];
}
