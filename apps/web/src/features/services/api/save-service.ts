import { serviceRemovalSchema, serviceSchema, type Service, type ServiceForm, type ServiceRemoval } from '@carteirinha/shared/contracts/services';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { useSubmitKeys } from '@/lib/use-submit-keys';
import { SERVICES_QUERY_ROOT } from './list-services';

function servicePath(id: string, action = ''): string {
  return `/api/clinic/services/${encodeURIComponent(id)}${action}`;
}

/** Every price a change moves: the list with its card prices and each service's history. */
function reloadServices(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [SERVICES_QUERY_ROOT] });
}

/** 'Novo Serviço'; a retry of the same values after a lost answer carries the same idempotency key. */
export function useCreateService() {
  const queryClient = useQueryClient();
  const keys = useSubmitKeys();
  return useMutation({
    mutationFn: (input: ServiceForm): Promise<Service> =>
      apiRequest('/api/clinic/services', serviceSchema, { method: 'POST', body: input, idempotencyKey: keys.keyFor(input) }),
    onSuccess: () => {
      keys.settle();
      return reloadServices(queryClient);
    },
  });
}

/** 'Editar': a new price opens a new stretch of the service's price history. */
export function useUpdateService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: ServiceForm }): Promise<Service> => apiRequest(servicePath(id), serviceSchema, { method: 'PUT', body: input }),
    onSuccess: () => reloadServices(queryClient),
  });
}

/** 'Excluir': deleted, or archived when visits used it (the answer says which). */
export function useRemoveService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<ServiceRemoval> => apiRequest(servicePath(id), serviceRemovalSchema, { method: 'DELETE' }),
    onSuccess: () => reloadServices(queryClient),
  });
}

/** 'Reativar': an archived service goes back on the price list. */
export function useRestoreService() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Service> => apiRequest(servicePath(id, '/restore'), serviceSchema, { method: 'POST' }),
    onSuccess: () => reloadServices(queryClient),
  });
}
