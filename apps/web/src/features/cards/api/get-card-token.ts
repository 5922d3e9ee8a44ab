import { cardTokenSchema, type CardToken } from '@carteirinha/shared/contracts/cards';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { tokenRefreshDelayMs } from '../lib/card-format';

/** GET /api/patient/cards/:id/token: the QR's current token and when the next one replaces it. */
export function getCardToken(cardId: string, signal?: AbortSignal): Promise<CardToken> {
  return apiRequest(`/api/patient/cards/${encodeURIComponent(cardId)}/token`, cardTokenSchema, { signal });
}

/** The token with the local time at which the QR asks for the next one (the countdown counts down to it). */
export type ScheduledCardToken = CardToken & { nextRefreshAtMs: number };

/**
 * The QR's token, asked again by itself when its window ends (at most every 60 s). Only for an active card: an
 * inactive one gets no token (`enabled` false), so nothing is requested.
 */
export function useCardToken(cardId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['cards', 'token', cardId],
    queryFn: async ({ signal }): Promise<ScheduledCardToken> => {
      const token = await getCardToken(cardId, signal);
      const receivedAt = Date.now();
      return { ...token, nextRefreshAtMs: receivedAt + tokenRefreshDelayMs(token.refreshAt, token.periodSeconds, receivedAt) };
    },
    enabled,
    // A token is good for its own window only: never show a cached one from an earlier visit.
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      return data ? Math.max(1_000, data.nextRefreshAtMs - Date.now()) : false;
    },
    // The card is shown at a counter, perhaps with the screen left on: keep refreshing in a background tab too.
    refetchIntervalInBackground: true,
  });
}
