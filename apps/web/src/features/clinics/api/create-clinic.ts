import { adminClinicSchema, type AdminClinic } from '@carteirinha/shared/contracts/clinics';
import type { ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** POST /api/admin/clinics → 201 with the new clinic; 409 when the CNPJ, sub-domain or domain is taken. */
export function createClinic(input: ClinicFormOutput): Promise<AdminClinic> {
  return apiRequest('/api/admin/clinics', adminClinicSchema, { method: 'POST', body: input });
}

export function useCreateClinic() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createClinic, onSuccess: () => invalidateAdminData(queryClient) });
}
