import {
  changePaymentMethodResponseSchema,
  type ChangePaymentMethodRequest,
} from '@carteirinha/shared/contracts/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { invalidateSubscriptionData } from './subscription-queries';

export type ChangePaymentMethodResponse = z.infer<typeof changePaymentMethodResponseSchema>;

/** PUT /api/patient/subscription/payment-method: the next charges (and an open one) are paid this way. */
export function changePaymentMethod(input: ChangePaymentMethodRequest): Promise<ChangePaymentMethodResponse> {
  return apiRequest('/api/patient/subscription/payment-method', changePaymentMethodResponseSchema, { method: 'PUT', body: input });
}

export function useChangePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changePaymentMethod, onSuccess: () => invalidateSubscriptionData(queryClient) });
}
