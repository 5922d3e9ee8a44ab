import { paymentSchema, type Payment } from '@carteirinha/shared/contracts/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { invalidateSubscriptionData } from './subscription-queries';

/**
 * POST /api/patient/payments/:id/simulate: the embedded provider pays the charge through the same webhook a real
 * provider calls (demos and tests only; `payment.canSimulate` says when it is offered).
 */
export function simulatePayment(id: string): Promise<Payment> {
  return apiRequest(`/api/patient/payments/${encodeURIComponent(id)}/simulate`, paymentSchema, { method: 'POST', body: {} });
}

export function useSimulatePayment() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: simulatePayment, onSuccess: () => invalidateSubscriptionData(queryClient) });
}
