import {
  clinicNetworkPageSchema,
  networkPlaceSchema,
  networkRemovalSchema,
  type NetworkPlace,
  type NetworkPlaceForm,
} from '@carteirinha/shared/contracts/network';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';

/** The first key of every network query: a change of a place reloads the clinic's list and the patients' search. */
const NETWORK_QUERY_ROOT = 'network';

export type ClinicNetworkParams = { q: string; page: number; pageSize: number };

/** GET /api/clinic/network: a page of the clinic's places, searched on the server, with the plan's partner limit. */
export function useClinicNetwork(params: ClinicNetworkParams) {
  return useQuery({
    queryKey: [NETWORK_QUERY_ROOT, 'clinic', params],
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
      if (params.q) search.set('q', params.q);
      return apiRequest(`/api/clinic/network?${search.toString()}`, clinicNetworkPageSchema, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

function placePath(id: string): string {
  return `/api/clinic/network/${encodeURIComponent(id)}`;
}

function reloadNetwork(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [NETWORK_QUERY_ROOT] });
}

/** 'Novo Local'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreatePlace() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: NetworkPlaceForm): Promise<NetworkPlace> =>
      apiRequest('/api/clinic/network', networkPlaceSchema, { method: 'POST', body: input, idempotencyKey: keys.keyFor(input) }),
    onSuccess: () => {
      keys.settle();
      return reloadNetwork(queryClient);
    },
  });
}

/** 'Editar Local'. */
export function useUpdatePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: NetworkPlaceForm }): Promise<NetworkPlace> => apiRequest(placePath(id), networkPlaceSchema, { method: 'PUT', body: input }),
    onSuccess: () => reloadNetwork(queryClient),
  });
}

/** 'Excluir'. */
export function useRemovePlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(placePath(id), networkRemovalSchema, { method: 'DELETE' }),
    onSuccess: () => reloadNetwork(queryClient),
  });
}
