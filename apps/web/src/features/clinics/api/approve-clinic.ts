import { adminClinicSchema, type AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateAdminData } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** POST /api/admin/clinics/:id/approve: a clinic in trial becomes active ("Aprovar Cadastro"). */
export function approveClinic(id: string): Promise<AdminClinic> {
  return apiRequest(`/api/admin/clinics/${encodeURIComponent(id)}/approve`, adminClinicSchema, { method: 'POST' });
}

export function useApproveClinic() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: approveClinic, onSuccess: () => invalidateAdminData(queryClient) });
}
