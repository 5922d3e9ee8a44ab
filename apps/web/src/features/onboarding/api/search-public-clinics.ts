import { publicClinicListSchema } from '@carteirinha/shared/contracts/tenant';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

export type PublicClinic = z.infer<typeof publicClinicListSchema>['items'][number];

/** The shortest search the server accepts (publicClinicSearchQuerySchema). */
export const CLINIC_SEARCH_MIN_LENGTH = 2;

/** GET /api/public/clinics?q=: open clinics whose name or city matches, each with the address of its site. */
export async function searchPublicClinics(q: string, signal?: AbortSignal): Promise<PublicClinic[]> {
  const search = new URLSearchParams({ q });
  const { items } = await apiRequest(`/api/public/clinics?${search.toString()}`, publicClinicListSchema, { signal });
  return items;
}

export function searchPublicClinicsQueryOptions(q: string) {
  return queryOptions({
    queryKey: ['public-clinics', q],
    queryFn: ({ signal }) => searchPublicClinics(q, signal),
    enabled: q.length >= CLINIC_SEARCH_MIN_LENGTH,
  });
}

/** "Sou paciente": asks only once the search is long enough; keeps the last results on screen while typing. */
export function usePublicClinicSearch(q: string) {
  return useQuery({ ...searchPublicClinicsQueryOptions(q), placeholderData: keepPreviousData });
}
