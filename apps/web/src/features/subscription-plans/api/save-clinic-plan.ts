import { subscriptionPlanSchema, type SubscriptionPlan, type SubscriptionPlanFormOutput } from '@carteirinha/shared/contracts/subscription-plans';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';
import { CLINIC_PLANS_QUERY_ROOT } from './clinic-plans-queries';

/** POST /api/clinic/subscription-plans → 201 with the new plan. */
export function createClinicPlan(input: SubscriptionPlanFormOutput, idempotencyKey: string): Promise<SubscriptionPlan> {
  return apiRequest('/api/clinic/subscription-plans', subscriptionPlanSchema, { method: 'POST', body: input, idempotencyKey });
}

/** PUT /api/clinic/subscription-plans/:id with the whole form. */
export function updateClinicPlan(id: string, input: SubscriptionPlanFormOutput): Promise<SubscriptionPlan> {
  return apiRequest(`/api/clinic/subscription-plans/${encodeURIComponent(id)}`, subscriptionPlanSchema, { method: 'PUT', body: input });
}

/** 'Novo Plano'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreateClinicPlan() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: SubscriptionPlanFormOutput) => createClinicPlan(input, keys.keyFor(input)),
    onSuccess: () => {
      keys.settle();
      return queryClient.invalidateQueries({ queryKey: [CLINIC_PLANS_QUERY_ROOT] });
    },
  });
}

export function useUpdateClinicPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, data }: { id: string; data: SubscriptionPlanFormOutput }) => updateClinicPlan(id, data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [CLINIC_PLANS_QUERY_ROOT] }),
  });
}
