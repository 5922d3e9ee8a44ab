import { deviceCodeRefreshAt } from '@carteirinha/shared/device-code';
import { useQuery } from '@tanstack/react-query';
import { deviceTokenAt } from './device-code';
import type { OfflineCardRecord } from './offline-card-store';

/**
 * The QR text this device computes for a card, again at the end of each 30 s step — with or without a network
 * (`networkMode: 'always'`): nothing here leaves the device.
 */
export function useDeviceToken(record: OfflineCardRecord, cardNumber: string) {
  return useQuery({
    queryKey: ['cards', 'device-token', record.deviceId, cardNumber],
    queryFn: async () => {
      const at = new Date();
      return { token: await deviceTokenAt(record.key, record.slot, cardNumber, at), nextRefreshAtMs: deviceCodeRefreshAt(at).getTime() };
    },
    networkMode: 'always',
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (query) => {
      const data = query.state.data;
      return data ? Math.max(500, data.nextRefreshAtMs - Date.now()) : false;
    },
    refetchIntervalInBackground: true,
  });
}
