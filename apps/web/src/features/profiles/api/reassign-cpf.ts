import { reassignCpfResponseSchema, type ReassignCpfRequest, type ReassignCpfResponse } from '@carteirinha/shared/contracts/profiles';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** POST /api/clinic/cpf-claims: gives a CPF to the clinic's patient with this e-mail (clinic_admin, issue 22). */
export function reassignCpf(input: ReassignCpfRequest): Promise<ReassignCpfResponse> {
  return apiRequest('/api/clinic/cpf-claims', reassignCpfResponseSchema, { method: 'POST', body: input });
}

export function useReassignCpf() {
  return useMutation({ mutationFn: reassignCpf });
}
