import type { MeResponse } from '@carteirinha/shared/contracts/me';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';
import { checkInCardDevice } from '../api/card-devices';
import { readOfflineCard, updateOfflineStanding, wipeOfflineCardData, type OfflineCardRecord } from './offline-card-store';

export const OFFLINE_CARD_KEY = ['offline-card'] as const;
/** How often an open card page tells the server the device is still online (and learns the card's standing). */
const CHECK_IN_INTERVAL_MS = 5 * 60_000;

/**
 * This device's offline card (IndexedDB), read without the network. A record of another account than the one signed
 * in is wiped on sight: one device key, one account.
 */
export function useOfflineCardRecord(me: MeResponse | null | undefined) {
  return useQuery({
    queryKey: OFFLINE_CARD_KEY,
    queryFn: async (): Promise<OfflineCardRecord | null> => {
      const record = await readOfflineCard();
      if (record && me && record.userId !== me.user.id) {
        await wipeOfflineCardData();
        return null;
      }
      return record;
    },
    enabled: me !== undefined,
    networkMode: 'always',
    staleTime: Infinity,
  });
}

/**
 * While online, the enrolled device checks in: the server confirms the cards it may show for the next 72 h (or says
 * they no longer validate). A device the patient removed gets 404: everything of the account is wiped from it.
 * Answers whether this device was found revoked.
 */
export function useDeviceCheckIn(record: OfflineCardRecord | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...OFFLINE_CARD_KEY, 'check-in', record?.deviceId],
    queryFn: async (): Promise<'confirmed' | 'revoked'> => {
      if (!record) return 'confirmed';
      try {
        const standing = await checkInCardDevice(record.deviceId);
        queryClient.setQueryData(OFFLINE_CARD_KEY, await updateOfflineStanding(standing));
        return 'confirmed';
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        await wipeOfflineCardData();
        queryClient.setQueryData(OFFLINE_CARD_KEY, null);
        return 'revoked';
      }
    },
    enabled: Boolean(record),
    retry: false,
    refetchInterval: CHECK_IN_INTERVAL_MS,
  });
}
