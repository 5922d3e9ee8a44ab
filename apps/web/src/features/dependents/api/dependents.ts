import { dependentsOverviewSchema, type DependentCreateValues, type DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

const DEPENDENTS_QUERY_KEY = ['dependents', 'mine'] as const;
const CARD_PENDING_POLL_MS = 1500;

/** GET /api/patient/dependents: the covered dependents, the plan's room and the prices with one more or one fewer. */
export function useMyDependents() {
  return useQuery({
    queryKey: DEPENDENTS_QUERY_KEY,
    queryFn: ({ signal }) => apiRequest('/api/patient/dependents', dependentsOverviewSchema, { signal }),
    // A dependent just added gets their card from the cards job a moment later: asked again until every card is there.
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.cardNumber === null) ? CARD_PENDING_POLL_MS : false),
  });
}

export type DependentFields = Omit<DependentCreateValues, 'cpf'>;

/**
 * Every change answers with the list as it is now, put in the cache at once; the cards (a dependent's is issued or
 * stopped), Início's tile and the subscription's price are asked again.
 */
function useApplyDependents() {
  const queryClient = useQueryClient();
  return (overview: DependentsOverview) => {
    queryClient.setQueryData(DEPENDENTS_QUERY_KEY, overview);
    return Promise.all(
      [['cards', 'mine'], ['patient-home'], ['subscriptions', 'mine']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  };
}

export function useAddDependent() {
  const apply = useApplyDependents();
  return useMutation({
    mutationFn: (input: DependentCreateValues) => apiRequest('/api/patient/dependents', dependentsOverviewSchema, { method: 'POST', body: input }),
    onSuccess: apply,
  });
}

export function useUpdateDependent() {
  const apply = useApplyDependents();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: DependentFields }) =>
      apiRequest(`/api/patient/dependents/${encodeURIComponent(id)}`, dependentsOverviewSchema, { method: 'PATCH', body: input }),
    onSuccess: apply,
  });
}

export function useRemoveDependent() {
  const apply = useApplyDependents();
  return useMutation({
    mutationFn: (id: string) => apiRequest(`/api/patient/dependents/${encodeURIComponent(id)}`, dependentsOverviewSchema, { method: 'DELETE' }),
    onSuccess: apply,
  });
}
