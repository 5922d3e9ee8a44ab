import { clinicBrandingSchema, type ClinicBranding } from '@carteirinha/shared/contracts/tenant';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/clinic/branding: the clinic's display name, colour and logo (clinic staff and admins). */
export function getBranding(signal?: AbortSignal): Promise<ClinicBranding> {
  return apiRequest('/api/clinic/branding', clinicBrandingSchema, { signal });
}

export const brandingQueryOptions = queryOptions({
  queryKey: ['clinic', 'branding'],
  queryFn: ({ signal }) => getBranding(signal),
});

export function useBranding() {
  return useQuery(brandingQueryOptions);
}
