import { patientNetworkPageSchema } from '@carteirinha/shared/contracts/network';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import type { LatLng } from '../lib/geo';

export type PatientNetworkParams = { q: string; page: number; pageSize: number; origin: LatLng | null };

/** GET /api/patient/network: the programme's places searched on the server; with the patient's position, nearest first. */
export function usePatientNetwork(params: PatientNetworkParams) {
  return useQuery({
    queryKey: ['network', 'patient', params],
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
      if (params.q) search.set('q', params.q);
      if (params.origin) {
        search.set('lat', String(params.origin.lat));
        search.set('lng', String(params.origin.lng));
      }
      return apiRequest(`/api/patient/network?${search.toString()}`, patientNetworkPageSchema, { signal });
    },
    placeholderData: keepPreviousData,
  });
}
