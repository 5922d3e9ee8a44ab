import { priceHistorySchema, serviceListSchema, type PriceHistoryEntry, type Service } from '@carteirinha/shared/contracts/services';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The first key of every services query: a change of a service reloads them all. */
export const SERVICES_QUERY_ROOT = 'services';

/** GET /api/clinic/services: the clinic's price list, archived services included. */
export async function listServices(signal?: AbortSignal): Promise<Service[]> {
  const { items } = await apiRequest('/api/clinic/services', serviceListSchema, { signal });
  return items;
}

export const servicesQueryOptions = queryOptions({
  queryKey: [SERVICES_QUERY_ROOT, 'list'],
  queryFn: ({ signal }) => listServices(signal),
});

export function useServices(options: { enabled?: boolean } = {}) {
  return useQuery({ ...servicesQueryOptions, enabled: options.enabled ?? true });
}

/** GET /api/clinic/services/:id/price-history: every stretch of the service's full and card prices. */
export function usePriceHistory(serviceId: string | null) {
  return useQuery({
    queryKey: [SERVICES_QUERY_ROOT, 'history', serviceId],
    queryFn: async ({ signal }): Promise<PriceHistoryEntry[]> =>
      (await apiRequest(`/api/clinic/services/${encodeURIComponent(serviceId ?? '')}/price-history`, priceHistorySchema, { signal })).items,
    enabled: serviceId !== null,
  });
}
