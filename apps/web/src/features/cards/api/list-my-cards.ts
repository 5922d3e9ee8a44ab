import { patientCardListSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { recheckWhileNoCard } from '../lib/card-recheck';

/** GET /api/patient/cards: the signed-in patient's cards, the holder's first, then each dependent's. */
export async function listMyCards(signal?: AbortSignal): Promise<PatientCard[]> {
  const { items } = await apiRequest('/api/patient/cards', patientCardListSchema, { signal });
  return items;
}

export const myCardsQueryOptions = queryOptions({
  queryKey: ['cards', 'mine'],
  queryFn: ({ signal }) => listMyCards(signal),
  refetchInterval: (query) => recheckWhileNoCard(query.state.data, query.state.dataUpdateCount),
});

export function useMyCards() {
  return useQuery(myCardsQueryOptions);
}
