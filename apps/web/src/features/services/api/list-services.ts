import { serviceListSchema, type Service } from '@carteirinha/shared/contracts/services';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** GET /api/clinic/services: the clinic's price list. */
export async function listServices(signal?: AbortSignal): Promise<Service[]> {
  const { items } = await apiRequest('/api/clinic/services', serviceListSchema, { signal });
  return items;
}

export const servicesQueryOptions = queryOptions({
  queryKey: ['services', 'list'],
  queryFn: ({ signal }) => listServices(signal),
});

export function useServices(options: { enabled?: boolean } = {}) {
  return useQuery({ ...servicesQueryOptions, enabled: options.enabled ?? true });
}
