import { adminClinicSchema, type AdminClinic } from '@carteirinha/shared/contracts/clinics';
import type { ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

export type UpdateClinicInput = { id: string; data: ClinicFormOutput };

/** PUT /api/admin/clinics/:id with the whole form; 409 when the CNPJ, sub-domain or domain is taken. */
export function updateClinic({ id, data }: UpdateClinicInput): Promise<AdminClinic> {
  return apiRequest(`/api/admin/clinics/${encodeURIComponent(id)}`, adminClinicSchema, { method: 'PUT', body: data });
}

export function useUpdateClinic() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateClinic, onSuccess: () => invalidateAdminData(queryClient) });
}
