import { pushDeviceSchema, type PushDevice } from '@carteirinha/shared/contracts/push';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { subscribeThisBrowser, unsubscribeThisBrowser } from '../lib/browser-push';
import { BROWSER_PUSH_QUERY_KEY } from './browser-subscription';
import { PUSH_STATE_QUERY_KEY } from './push-state';

/** Asks the browser's permission, subscribes it at its push service, and POSTs the subscription: 201 with the device. */
export async function turnPushOn(publicKey: string): Promise<PushDevice> {
  const subscription = await subscribeThisBrowser(publicKey);
  return apiRequest('/api/patient/push/subscriptions', pushDeviceSchema, { method: 'POST', body: subscription });
}

/** DELETE the device on the server (when it knows it), then unsubscribe the browser: off on both sides. */
export async function turnPushOff(deviceId: string | null): Promise<void> {
  if (deviceId) await apiRequest(`/api/patient/push/subscriptions/${encodeURIComponent(deviceId)}`, z.null(), { method: 'DELETE' });
  await unsubscribeThisBrowser();
}

function useRefreshPush() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: PUSH_STATE_QUERY_KEY }), queryClient.invalidateQueries({ queryKey: BROWSER_PUSH_QUERY_KEY })]);
}

export function useTurnPushOn() {
  const refresh = useRefreshPush();
  return useMutation({ mutationFn: turnPushOn, onSettled: refresh });
}

export function useTurnPushOff() {
  const refresh = useRefreshPush();
  return useMutation({ mutationFn: turnPushOff, onSettled: refresh });
}
