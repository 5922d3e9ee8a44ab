import { autoRenewalResponseSchema } from '@carteirinha/shared/contracts/auto-renewal';
import type { AutoRenewalRequest } from '@carteirinha/shared/contracts/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateSubscriptionData } from './subscription-queries';

/** PUT /api/patient/subscription/auto-renewal: Meu Perfil's 'Renovação automática' switch. */
export function useSetAutoRenewal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AutoRenewalRequest) => apiRequest('/api/patient/subscription/auto-renewal', autoRenewalResponseSchema, { method: 'PUT', body: input }),
    onSuccess: () => invalidateSubscriptionData(queryClient),
  });
}
