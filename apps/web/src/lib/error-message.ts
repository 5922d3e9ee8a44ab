import { messages } from '@carteirinha/shared/messages';
import { ApiError, NetworkError } from './api';

/**
 * The pt-BR sentence to show for a failed request: the server's own message when it answered, otherwise a network
 * failure — for a save, "Sem conexão. Nada foi salvo.", since a write is never sent or repeated behind the user's back.
 * A response that did not match its contract (a ZodError) is an internal error, never shown raw.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof NetworkError) {
    if (error.isWrite) return messages.common.offlineNothingSaved;
    return error.reason === 'timeout' ? messages.common.readTimeout : messages.common.networkError;
  }
  if (error instanceof TypeError) return messages.common.networkError;
  return messages.errors.INTERNAL;
}
