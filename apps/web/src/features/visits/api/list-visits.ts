import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { visitSchema, type VisitStatus } from '@carteirinha/shared/contracts/visits';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

const visitPageSchema = keysetPageOf(visitSchema);
export type VisitPage = z.infer<typeof visitPageSchema>;

/** Every visit query starts with this key, so a new visit refreshes the list and the histories at once. */
export const VISITS_QUERY_ROOT = 'visits';

/** 'Filtros' of Atendimentos (also sent with 'Exportar'): each one narrows the list when set. */
export type VisitFilters = {
  status?: VisitStatus;
  serviceId?: string;
  /** The team member who registered the visit. */
  registeredBy?: string;
  /** São Paulo days (yyyy-MM-dd), both included. */
  from?: string;
  to?: string;
};

/** The filters' query parameters, in a fixed order (they are part of the query key and of the export's address). */
export function visitFilterParams(filters: VisitFilters, search = new URLSearchParams()): URLSearchParams {
  for (const key of ['status', 'serviceId', 'registeredBy', 'from', 'to'] as const) {
    const value = filters[key];
    if (value) search.set(key, value);
  }
  return search;
}

export type ListVisitsParams = VisitFilters & {
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
export function listVisits({ q, page, pageSize, after, cardId, ...filters }: ListVisitsParams, signal?: AbortSignal): Promise<VisitPage> {
  const search = visitFilterParams(filters, new URLSearchParams({ page: String(page), pageSize: String(pageSize) }));
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
