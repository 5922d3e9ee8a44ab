import { adminClinicSchema, type AdminClinic } from '@carteirinha/shared/contracts/clinics';
import type { ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

/** POST /api/admin/clinics → 201 with the new clinic; 409 when the CNPJ, sub-domain or domain is taken. */
export function createClinic(input: ClinicFormOutput, idempotencyKey?: string): Promise<AdminClinic> {
  return apiRequest('/api/admin/clinics', adminClinicSchema, { method: 'POST', body: input, idempotencyKey });
}

/** 'Nova Clínica'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreateClinic() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: ClinicFormOutput) => createClinic(input, keys.keyFor(input)),
    onSuccess: () => {
      keys.settle();
      return invalidateAdminData(queryClient);
    },
  });
}
