import { clinicSettingsSchema, type ClinicSettings, type ClinicSettingsForm } from '@carteirinha/shared/contracts/clinics';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { tenantQueryOptions } from '@/features/tenancy/api/get-tenant';
import { CLINIC_DASHBOARD_QUERY_ROOT } from '@/features/dashboard/api/clinic-dashboard-key';

export const clinicSettingsQueryOptions = queryOptions({
  queryKey: ['clinic', 'settings'],
  queryFn: ({ signal }) => getClinicSettings(signal),
});

/** GET /api/clinic/settings: the clinic's data, opening hours, notification switches, grace period and site. */
export function getClinicSettings(signal?: AbortSignal): Promise<ClinicSettings> {
  return apiRequest('/api/clinic/settings', clinicSettingsSchema, { signal });
}

/** PUT /api/clinic/settings → the settings as saved. */
export function saveClinicSettings(form: ClinicSettingsForm): Promise<ClinicSettings> {
  return apiRequest('/api/clinic/settings', clinicSettingsSchema, { method: 'PUT', body: form });
}

export function useClinicSettings() {
  return useQuery(clinicSettingsQueryOptions);
}

/**
 * 'Salvar Alterações'. The answer replaces the cached settings at once; the clinic's name is on its site and in the
 * Dashboard's first steps, so those are asked again.
 */
export function useSaveClinicSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveClinicSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(clinicSettingsQueryOptions.queryKey, saved);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: tenantQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT] }),
      ]);
    },
  });
}
