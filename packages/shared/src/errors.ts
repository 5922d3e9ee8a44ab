import { z } from 'zod';
import { messages } from './messages.ts';

/** Every error code the API can answer with. */
export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'TWO_FACTOR_REQUIRED',
  'REAUTHENTICATION_REQUIRED',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'VALIDATION',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'CONFLICT',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** The body of every API error: `{ error: { code, message } }`, message in pt-BR. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    errorId: z.string().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The default pt-BR message for a code. */
export function defaultErrorMessage(code: ErrorCode): string {
  return messages.errors[code];
}
