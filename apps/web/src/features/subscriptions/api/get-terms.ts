import { contractTermsSchema, type ContractTerms } from '@carteirinha/shared/contracts/subscriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { SUBSCRIPTION_QUERY_ROOT } from './subscription-queries';

/** GET /api/patient/terms: the clinic's current contract terms, which checkout asks the patient to accept. */
export function getPatientTerms(signal?: AbortSignal): Promise<ContractTerms> {
  return apiRequest('/api/patient/terms', contractTermsSchema, { signal });
}

export const patientTermsQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_QUERY_ROOT, 'terms'],
  queryFn: ({ signal }) => getPatientTerms(signal),
});

/** Read only while the checkout dialog is open. */
export function usePatientTerms(enabled: boolean) {
  return useQuery({ ...patientTermsQueryOptions, enabled });
}
