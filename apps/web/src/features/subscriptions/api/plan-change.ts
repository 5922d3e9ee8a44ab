import { planChangeOverviewSchema, planChangeResponseSchema, type PlanChange, type PlanChangeOverview, type PlanChangeRequest } from '@carteirinha/shared/contracts/plan-changes';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';
import { submitFingerprint } from '../lib/checkout-form';
import { invalidateSubscriptionData, SUBSCRIPTION_QUERY_ROOT } from './subscription-queries';

const PLAN_CHANGE_PATH = '/api/patient/plan-change';

/** GET /api/patient/plan-change: each plan the patient may move to, what it costs now, and a change already asked. */
export const planChangeQueryOptions = queryOptions({
  queryKey: [SUBSCRIPTION_QUERY_ROOT, 'plan-change'],
  queryFn: ({ signal }): Promise<PlanChangeOverview> => apiRequest(PLAN_CHANGE_PATH, planChangeOverviewSchema, { signal }),
});

export function usePlanChangeOverview(enabled: boolean) {
  return useQuery({ ...planChangeQueryOptions, enabled });
}

/**
 * 'Pagar e trocar de plano' / 'Agendar troca'. A retry after a lost answer carries the same Idempotency-Key (the card
 * only by its last digits), so the difference is never charged twice.
 */
export function useRequestPlanChange() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: async (input: PlanChangeRequest): Promise<PlanChange> => {
      const { change } = await apiRequest(PLAN_CHANGE_PATH, planChangeResponseSchema, { method: 'POST', body: input, idempotencyKey: keys.keyFor(submitFingerprint(input)) });
      return change;
    },
    onSuccess: () => {
      keys.settle();
      return invalidateSubscriptionData(queryClient);
    },
  });
}

/** 'Desistir da troca'. */
export function useCancelPlanChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(PLAN_CHANGE_PATH, z.null(), { method: 'DELETE' }),
    onSuccess: () => invalidateSubscriptionData(queryClient),
  });
}
