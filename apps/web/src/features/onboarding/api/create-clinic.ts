import {
  onboardingClinicResponseSchema,
  type onboardingClinicSchema,
} from '@carteirinha/shared/contracts/tenant';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

export type CreateClinicInput = z.output<typeof onboardingClinicSchema>;
export type CreateClinicResult = z.infer<typeof onboardingClinicResponseSchema>;

/** POST /api/onboarding/clinic: the signed-in user's new clinic, in a 14-day trial, with them as its clinic_admin. */
export function createClinic(input: CreateClinicInput, idempotencyKey?: string): Promise<CreateClinicResult> {
  return apiRequest('/api/onboarding/clinic', onboardingClinicResponseSchema, { method: 'POST', body: input, idempotencyKey });
}

/** 'Criar minha clínica'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreateClinic() {
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: CreateClinicInput) => createClinic(input, keys.keyFor(input)),
    onSuccess: () => keys.settle(),
  });
}
