import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { adminUserSchema } from '@carteirinha/shared/contracts/users';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

const userPageSchema = keysetPageOf(adminUserSchema);
export type UserPage = z.infer<typeof userPageSchema>;

export type ListUsersParams = {
  /** E-mail or name fragment; the server matches it case-insensitively. Empty lists every user. */
  q: string;
  page: number;
  pageSize: number;
  /** Where the page before ended (its nextCursor), when known: the server then reads the page by keyset. */
  after?: string;
};

/** GET /api/admin/users: one page of the platform's users with their role, clinic and last sign-in. */
export function listUsers({ q, page, pageSize, after }: ListUsersParams, signal?: AbortSignal): Promise<UserPage> {
  const search = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) search.set('q', q);
  if (after) search.set('after', after);
  return apiRequest(`/api/admin/users?${search.toString()}`, userPageSchema, { signal });
}

export function listUsersQueryOptions(params: ListUsersParams) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'users', 'list', params],
    queryFn: ({ signal }) => listUsers(params, signal),
  });
}

/** The admin user list; keeps showing the previous page while the next search or page loads. */
export function useUsers(params: ListUsersParams) {
  return useQuery({ ...listUsersQueryOptions(params), placeholderData: keepPreviousData });
}
