import { tenantResponseSchema, type TenantResponse } from '@carteirinha/shared/contracts/tenant';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

export type ClinicTenant = Extract<TenantResponse, { kind: 'clinic' }>;

/** GET /api/tenant: which site this host is — the platform, or one clinic with its branding and active plans. */
export function getTenant(signal?: AbortSignal): Promise<TenantResponse> {
  return apiRequest('/api/tenant', tenantResponseSchema, { signal });
}

export const tenantQueryOptions = queryOptions({
  queryKey: ['tenant'],
  queryFn: ({ signal }) => getTenant(signal),
  // The host never changes while the page is open; only the clinic admin's branding edits do, and they invalidate it.
  staleTime: 60 * 60_000,
});

/** This host's site. The root route prefetches it, so pages usually read it at once. */
export function useTenant() {
  return useQuery(tenantQueryOptions);
}

/** The clinic whose host this is, or null on the platform's own host (and while the answer is unknown). */
export function useClinicTenant(): ClinicTenant | null {
  const { data } = useTenant();
  return data?.kind === 'clinic' ? data : null;
}
