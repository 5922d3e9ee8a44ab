import { meResponseSchema, type MeResponse } from '@carteirinha/shared/contracts/me';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';
import { notifySessionExpired } from '@/lib/query-client';

/** Who is signed in: `null` when nobody is (the API answers 401). */
async function fetchMe(signal: AbortSignal): Promise<MeResponse | null> {
  try {
    return await apiRequest('/api/me', meResponseSchema, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (error.code === 'SESSION_EXPIRED') notifySessionExpired();
      return null;
    }
    throw error;
  }
}

export const meQueryOptions = queryOptions({
  queryKey: ['me'],
  queryFn: ({ signal }) => fetchMe(signal),
  staleTime: 60_000,
});

/** The signed-in user, role and clinic; `data` is null when signed out. */
export function useMe() {
  return useQuery(meQueryOptions);
}
