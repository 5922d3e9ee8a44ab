import {
  cardDeviceCheckInSchema,
  cardDeviceListSchema,
  enrolCardDeviceResponseSchema,
  type CardDeviceCheckIn,
  type EnrolCardDeviceRequest,
  type EnrolCardDeviceResponse,
} from '@carteirinha/shared/contracts/card-devices';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';

/** POST /api/patient/card-devices: enrols this device; the answer carries its secret, once. */
export function enrolCardDevice(input: EnrolCardDeviceRequest): Promise<EnrolCardDeviceResponse> {
  return apiRequest('/api/patient/card-devices', enrolCardDeviceResponseSchema, { method: 'POST', body: input });
}

/** POST /api/patient/card-devices/:id/check-in: the device is online; the cards as the server sees them now. */
export function checkInCardDevice(deviceId: string): Promise<CardDeviceCheckIn> {
  return apiRequest(`/api/patient/card-devices/${encodeURIComponent(deviceId)}/check-in`, cardDeviceCheckInSchema, { method: 'POST', intent: 'read' });
}

/** DELETE /api/patient/card-devices/:id: its codes stop validating at once. */
export function revokeCardDevice(deviceId: string): Promise<null> {
  return apiRequest(`/api/patient/card-devices/${encodeURIComponent(deviceId)}`, z.null(), { method: 'DELETE' });
}

export const cardDevicesQueryOptions = queryOptions({
  queryKey: ['card-devices'],
  queryFn: ({ signal }) => apiRequest('/api/patient/card-devices', cardDeviceListSchema, { signal }),
});

export function useCardDevices() {
  return useQuery(cardDevicesQueryOptions);
}
