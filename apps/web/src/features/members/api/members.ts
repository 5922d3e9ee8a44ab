import { memberDetailSchema, memberSchema, type MemberStatusFilter } from '@carteirinha/shared/contracts/members';
import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api';

const memberPageSchema = keysetPageOf(memberSchema);
export type MemberPage = z.infer<typeof memberPageSchema>;

export type ListMembersParams = { q: string; status: MemberStatusFilter | ''; page: number; pageSize: number; after?: string };

const MEMBERS_QUERY_ROOT = 'members';

/** GET /api/clinic/members: one page of the programme's patients, searched and filtered on the server. */
export function useMembers(params: ListMembersParams) {
  return useQuery({
    queryKey: [MEMBERS_QUERY_ROOT, 'list', params],
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(params.page), pageSize: String(params.pageSize) });
      if (params.q) search.set('q', params.q);
      if (params.status) search.set('status', params.status);
      if (params.after) search.set('after', params.after);
      return apiRequest(`/api/clinic/members?${search.toString()}`, memberPageSchema, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** GET /api/clinic/members/:userId: everything the clinic holds of one member. */
export function useMember(userId: string) {
  return useQuery({
    queryKey: [MEMBERS_QUERY_ROOT, 'detail', userId],
    queryFn: ({ signal }) => apiRequest(`/api/clinic/members/${encodeURIComponent(userId)}`, memberDetailSchema, { signal }),
  });
}
