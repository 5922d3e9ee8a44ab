import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { visitSchema } from '@carteirinha/shared/contracts/visits';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

const visitPageSchema = keysetPageOf(visitSchema);
export type VisitPage = z.infer<typeof visitPageSchema>;

/** Every visit query starts with this key, so a new visit refreshes the list and the histories at once. */
export const VISITS_QUERY_ROOT = 'visits';

export type ListVisitsParams = {
  /** Patient name or service fragment, searched on the server. */
  q: string;
  page: number;
  pageSize: number;
  /** Where the page before ended (its nextCursor), when known: the server then reads the page by keyset. */
  after?: string;
  /** Only this card's visits (Ver Histórico). */
  cardId?: string;
};

/** GET /api/clinic/visits: one page of the clinic's visits, newest first. */
export function listVisits({ q, page, pageSize, after, cardId }: ListVisitsParams, signal?: AbortSignal): Promise<VisitPage> {
  const search = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) search.set('q', q);
  if (after) search.set('after', after);
  if (cardId) search.set('cardId', cardId);
  return apiRequest(`/api/clinic/visits?${search.toString()}`, visitPageSchema, { signal });
}

export function listVisitsQueryOptions(params: ListVisitsParams) {
  return queryOptions({
    queryKey: [VISITS_QUERY_ROOT, 'list', params],
    queryFn: ({ signal }) => listVisits(params, signal),
  });
}

/** The clinic's visits; keeps showing the previous page while the next search or page loads. */
export function useVisits(params: ListVisitsParams, options: { enabled?: boolean } = {}) {
  return useQuery({ ...listVisitsQueryOptions(params), placeholderData: keepPreviousData, enabled: options.enabled ?? true });
}
