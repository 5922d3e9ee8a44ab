import { clinicDetailSchema, type ClinicDetail } from '@carteirinha/shared/contracts/clinics';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/clinics/:id: one clinic with its address, team and subscription figures ("Visualizar"). */
export function getClinic(id: string, signal?: AbortSignal): Promise<ClinicDetail> {
  return apiRequest(`/api/admin/clinics/${encodeURIComponent(id)}`, clinicDetailSchema, { signal });
}

export function clinicQueryOptions(id: string) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'clinics', 'detail', id],
    queryFn: ({ signal }) => getClinic(id, signal),
  });
}

/** The clinic's detail; idle while `id` is null (no clinic chosen). */
export function useClinic(id: string | null) {
  return useQuery({ ...clinicQueryOptions(id ?? ''), enabled: id !== null });
}
