import { messages } from '@carteirinha/shared/messages';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';
import { shouldRetryQuery } from './query-retry';
import { acrossPageChange, toast } from './toasts';

/** The query key of GET /api/me (app/session.ts), which decides what the portals show. */
const ME_KEY = ['me'] as const;

/** Said once, however many requests fail at the same moment. */
export function notifySessionExpired(): void {
  // Shown on the way to /auth, where it must still be read.
  toast.error(messages.errors.SESSION_EXPIRED, { id: acrossPageChange('session-expired') });
}

/**
 * Answers that change who the user is, whichever request met them: an ended session (inactivity timeout) signs the
 * user out on screen; a two-factor demand reloads /api/me so that the portal shows the enrolment.
 */
function onApiError(error: unknown): void {
  if (!(error instanceof ApiError)) return;
  if (error.code === 'SESSION_EXPIRED') {
    notifySessionExpired();
    queryClient.setQueryData(ME_KEY, null);
  }
  if (error.code === 'TWO_FACTOR_REQUIRED') void queryClient.invalidateQueries({ queryKey: ME_KEY });
  // The clinic was closed while the portal was open (ADR 010): /api/me says so, and the portal shows why.
  if (error.code === 'CLINIC_INACTIVE') void queryClient.invalidateQueries({ queryKey: ME_KEY });
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // Offline, a query fails (and shows its error state with 'Tentar novamente') instead of waiting paused.
      networkMode: 'always',
      retry: shouldRetryQuery,
    },
    mutations: {
      // Never held back while offline to be sent later behind the user's back: the save fails now, with the form kept.
      networkMode: 'always',
      // A write is not repeated automatically; the user's own retry sends the same idempotency key.
      retry: false,
    },
  },
});
