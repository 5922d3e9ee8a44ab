import { patientHomeSchema } from '@carteirinha/shared/contracts/patient-visits';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/patient/home: Início's next appointment, dependents and latest three visits. */
export function usePatientHome() {
  return useQuery({
    queryKey: ['patient-home'],
    queryFn: ({ signal }) => apiRequest('/api/patient/home', patientHomeSchema, { signal }),
  });
}
