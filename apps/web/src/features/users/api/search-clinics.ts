import type { AdminClinic } from '@carteirinha/shared/contracts/clinics';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { listClinics } from '@/features/clinics/api/list-clinics';

/** What the role dialog's clinic picker needs of a clinic. */
export type ClinicOption = Pick<AdminClinic, 'id' | 'name' | 'cnpj'>;

/** How many matches the picker lists; typing more narrows them. */
const PICKER_PAGE_SIZE = 20;

/** The clinics whose name or CNPJ contains `q`, searched by the server (the admin list's first page). */
export async function searchClinics(q: string, signal?: AbortSignal): Promise<ClinicOption[]> {
  return (await listClinics({ q, page: 1, pageSize: PICKER_PAGE_SIZE }, signal)).items;
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
