import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

const clinicPageSchema = keysetPageOf(adminClinicSchema);
export type ClinicPage = z.infer<typeof clinicPageSchema>;

export type ListClinicsParams = {
  /** Name or CNPJ fragment; the server matches it ignoring case and accents. Empty lists every clinic. */
  q: string;
  page: number;
  pageSize: number;
  /** Where the page before ended (its nextCursor), when known: the server then reads the page by keyset. */
  after?: string;
  /** Only the self-service sign-ups still awaiting 'Aprovar Cadastro'. */
  awaitingApproval?: boolean;
};

/** GET /api/admin/clinics: one page of the platform's clinics, newest first, with their revenue and site address. */
export function listClinics({ q, page, pageSize, after, awaitingApproval }: ListClinicsParams, signal?: AbortSignal): Promise<ClinicPage> {
  const search = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) search.set('q', q);
  if (after) search.set('after', after);
  if (awaitingApproval) search.set('awaitingApproval', 'true');
  return apiRequest(`/api/admin/clinics?${search.toString()}`, clinicPageSchema, { signal });
}

export function listClinicsQueryOptions(params: ListClinicsParams) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'clinics', 'list', params],
    queryFn: ({ signal }) => listClinics(params, signal),
  });
}

/** The admin clinic list; keeps showing the previous page while the next search or page loads. */
export function useClinics(params: ListClinicsParams) {
  return useQuery({ ...listClinicsQueryOptions(params), placeholderData: keepPreviousData });
}
