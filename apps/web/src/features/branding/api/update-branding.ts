import { clinicBrandingSchema, type brandingUpdateSchema, type ClinicBranding } from '@carteirinha/shared/contracts/tenant';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { tenantQueryOptions } from '@/features/tenancy/api/get-tenant';
import { apiRequest } from '@/lib/api';
import { brandingQueryOptions } from './get-branding';

export type BrandingUpdate = z.output<typeof brandingUpdateSchema>;

/** PATCH /api/clinic/branding: the display name and primary colour (clinic_admin). */
export function updateBranding(input: BrandingUpdate): Promise<ClinicBranding> {
  return apiRequest('/api/clinic/branding', clinicBrandingSchema, { method: 'PATCH', body: input });
}

/**
 * The answer is the new branding: the settings form shows it at once, and the host's tenant is asked again so that
 * on the clinic's own site the new name, colour and logo apply without a reload.
 */
export async function applyBranding(queryClient: QueryClient, branding: ClinicBranding): Promise<void> {
  queryClient.setQueryData(brandingQueryOptions.queryKey, branding);
  await queryClient.invalidateQueries({ queryKey: tenantQueryOptions.queryKey });
}

export function useUpdateBranding() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateBranding, onSuccess: (branding) => applyBranding(queryClient, branding) });
}
