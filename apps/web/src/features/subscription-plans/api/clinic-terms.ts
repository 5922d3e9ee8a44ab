import { contractTermsSchema, type ContractTerms, type ContractTermsUpdate } from '@carteirinha/shared/contracts/subscriptions';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';
import { CLINIC_PLANS_QUERY_ROOT } from './clinic-plans-queries';

/** GET /api/clinic/terms: the clinic's current terms, or null before the first version is published (404). */
export async function getClinicTerms(signal?: AbortSignal): Promise<ContractTerms | null> {
  try {
    return await apiRequest('/api/clinic/terms', contractTermsSchema, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const clinicTermsQueryOptions = queryOptions({
  queryKey: [CLINIC_PLANS_QUERY_ROOT, 'terms'],
  queryFn: ({ signal }) => getClinicTerms(signal),
});

export function useClinicTerms() {
  return useQuery(clinicTermsQueryOptions);
}

/** PUT /api/clinic/terms: publishes a new version (the server refuses a text without "não é plano de saúde"). */
export function publishClinicTerms(input: ContractTermsUpdate): Promise<ContractTerms> {
  return apiRequest('/api/clinic/terms', contractTermsSchema, { method: 'PUT', body: input });
}

export function usePublishClinicTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishClinicTerms,
    onSuccess: (terms) => queryClient.setQueryData(clinicTermsQueryOptions.queryKey, terms),
  });
}
