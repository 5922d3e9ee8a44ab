import { adminClinicSchema } from '@carteirinha/shared/contracts/clinics';
import { pageOf } from '@carteirinha/shared/contracts/pagination';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** What the role dialog's clinic picker needs of a clinic: the admin list's own schema, narrowed. */
const clinicOptionPageSchema = pageOf(adminClinicSchema.pick({ id: true, name: true, cnpj: true }));
export type ClinicOption = z.infer<typeof clinicOptionPageSchema>['items'][number];

/** How many matches the picker lists; typing more narrows them. */
const PICKER_PAGE_SIZE = 20;

/** GET /api/admin/clinics?q=…: the clinics whose name or CNPJ contains `q`, searched by the server. */
export async function searchClinics(q: string, signal?: AbortSignal): Promise<ClinicOption[]> {
  const search = new URLSearchParams({ page: '1', pageSize: String(PICKER_PAGE_SIZE) });
  if (q) search.set('q', q);
  const page = await apiRequest(`/api/admin/clinics?${search.toString()}`, clinicOptionPageSchema, { signal });
  return page.items;
}

export function searchClinicsQueryOptions(q: string) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'clinics', 'picker', q],
    queryFn: ({ signal }) => searchClinics(q, signal),
  });
}

/** The picker's options for `q`; nothing is asked while `enabled` is false (the list is closed). */
export function useClinicSearch(q: string, enabled: boolean) {
  return useQuery({ ...searchClinicsQueryOptions(q), enabled, placeholderData: keepPreviousData });
}
