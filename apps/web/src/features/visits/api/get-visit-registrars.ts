import { visitRegistrarsSchema, type VisitRegistrars } from '@carteirinha/shared/contracts/visits';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { VISITS_QUERY_ROOT } from './list-visits';

/** GET /api/clinic/visits/registrars: the team members, for the 'Registrado por' filter. */
export function getVisitRegistrars(signal?: AbortSignal): Promise<VisitRegistrars> {
  return apiRequest('/api/clinic/visits/registrars', visitRegistrarsSchema, { signal });
}

export function useVisitRegistrars(options: { enabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions({ queryKey: [VISITS_QUERY_ROOT, 'registrars'], queryFn: ({ signal }) => getVisitRegistrars(signal) }),
    enabled: options.enabled ?? true,
  });
}
