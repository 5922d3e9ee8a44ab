import {
  onboardingClinicResponseSchema,
  type onboardingClinicSchema,
} from '@carteirinha/shared/contracts/tenant';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

export type CreateClinicInput = z.output<typeof onboardingClinicSchema>;
export type CreateClinicResult = z.infer<typeof onboardingClinicResponseSchema>;

/** POST /api/onboarding/clinic: the signed-in user's new clinic, in a 14-day trial, with them as its clinic_admin. */
export function createClinic(input: CreateClinicInput): Promise<CreateClinicResult> {
  return apiRequest('/api/onboarding/clinic', onboardingClinicResponseSchema, { method: 'POST', body: input });
}

export function useCreateClinic() {
  return useMutation({ mutationFn: createClinic });
}
