import { ApiError, NetworkError } from './api';

/**
 * Whether a failed query is asked again, once: a 5xx or a lost connection may pass, so the error state waits for one
 * more try; a 4xx (refused, not found, signed out) will not get better, so it shows at once. A response that broke its
 * contract (a ZodError) or any other error is not retried either.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (error instanceof ApiError) return error.status >= 500;
  return error instanceof NetworkError;
}
