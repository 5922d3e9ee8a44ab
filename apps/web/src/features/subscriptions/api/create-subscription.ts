import {
  createSubscriptionResponseSchema,
  type CreateSubscriptionRequest,
  type CreateSubscriptionResponse,
} from '@carteirinha/shared/contracts/subscriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';
import { submitFingerprint } from '../lib/checkout-form';
import { invalidateSubscriptionData } from './subscription-queries';

/** POST /api/patient/subscriptions: subscribes to a plan and answers with the first charge. */
export function createSubscription(input: CreateSubscriptionRequest, idempotencyKey: string): Promise<CreateSubscriptionResponse> {
  return apiRequest('/api/patient/subscriptions', createSubscriptionResponseSchema, { method: 'POST', body: input, idempotencyKey });
}

/**
 * 'Confirmar Assinatura'. The retry of the same checkout after a lost answer carries the same Idempotency-Key, so the
 * patient is never charged twice. The key is made from what was sent, the card only by its last digits, expiry and
 * holder (the full number is not kept for it), and dropped on success.
 */
export function useCreateSubscription() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: CreateSubscriptionRequest) => createSubscription(input, keys.keyFor(submitFingerprint(input))),
    onSuccess: () => {
      keys.settle();
      return invalidateSubscriptionData(queryClient);
    },
  });
}
