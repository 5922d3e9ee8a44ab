import { validateCardResponseSchema, type ValidateCardRequest, type ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/**
 * POST /api/clinic/card-validations: always 200 with `valid` true or false; every attempt is audited on the server.
 * Not idempotent on purpose: each validation is a new attempt at the counter.
 */
export function validateCard(input: ValidateCardRequest): Promise<ValidateCardResponse> {
  return apiRequest('/api/clinic/card-validations', validateCardResponseSchema, { method: 'POST', body: input, intent: 'read' });
}

export function useValidateCard() {
  return useMutation({ mutationFn: validateCard });
}
