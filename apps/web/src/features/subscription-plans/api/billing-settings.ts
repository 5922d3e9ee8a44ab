import { billingSettingsSchema, type BillingSettings, type UpdateBillingSettingsRequest } from '@carteirinha/shared/contracts/payments';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { CLINIC_PLANS_QUERY_ROOT } from './clinic-plans-queries';

/** GET /api/clinic/billing-settings: grace days and whether the clinic's Asaas account is connected (never the key). */
export function getBillingSettings(signal?: AbortSignal): Promise<BillingSettings> {
  return apiRequest('/api/clinic/billing-settings', billingSettingsSchema, { signal });
}

const billingSettingsQueryOptions = queryOptions({
  queryKey: [CLINIC_PLANS_QUERY_ROOT, 'billing-settings'],
  queryFn: ({ signal }) => getBillingSettings(signal),
});

export function useBillingSettings() {
  return useQuery(billingSettingsQueryOptions);
}

/** PUT /api/clinic/billing-settings: the key, when given, is sealed by the server and never comes back. */
export function updateBillingSettings(input: UpdateBillingSettingsRequest): Promise<BillingSettings> {
  return apiRequest('/api/clinic/billing-settings', billingSettingsSchema, { method: 'PUT', body: input });
}

export function useUpdateBillingSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBillingSettings,
    onSuccess: (settings) => queryClient.setQueryData(billingSettingsQueryOptions.queryKey, settings),
  });
}
