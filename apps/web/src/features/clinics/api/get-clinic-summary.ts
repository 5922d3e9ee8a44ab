import { clinicSummarySchema, type ClinicSummary } from '@carteirinha/shared/contracts/clinics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/clinics/summary: the four counts above the clinic table. */
export function getClinicSummary(signal?: AbortSignal): Promise<ClinicSummary> {
  return apiRequest('/api/admin/clinics/summary', clinicSummarySchema, { signal });
}

export const clinicSummaryQueryOptions = queryOptions({
  queryKey: [ADMIN_QUERY_ROOT, 'clinics', 'summary'],
  queryFn: ({ signal }) => getClinicSummary(signal),
});

export function useClinicSummary() {
  return useQuery(clinicSummaryQueryOptions);
}
