import { messages } from '@carteirinha/shared/messages';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError } from './api';

/** The query key of GET /api/me (app/session.ts), which decides what the portals show. */
const ME_KEY = ['me'] as const;

/** Said once, however many requests fail at the same moment. */
export function notifySessionExpired(): void {
  toast.error(messages.errors.SESSION_EXPIRED, { id: 'session-expired' });
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
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      // A 4xx will not get better by asking again.
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
    },
  },
});
