import { meResponseSchema, type MeResponse } from '@carteirinha/shared/contracts/me';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api';
import { notifySessionExpired } from '@/lib/query-client';

/**
 * Who is signed in: `null` when nobody is. The probe answers a visitor without a session with 200 and null (no failed
 * request in the console on every anonymous page load); a session the server refused (expired) is still a 401.
 */
async function fetchMe(signal: AbortSignal): Promise<MeResponse | null> {
  try {
    return await apiRequest('/api/session', meResponseSchema.nullable(), { signal });
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

/**
 * Whether the user is signing out on purpose ('Sair'): the portal's guard then lets /auth open plainly, without the
 * page to come back to that it keeps for a visitor who was never or no longer signed in.
 */
let signingOut = false;

export function isSigningOut(): boolean {
  return signingOut;
}

/** Runs `leave` (the navigation to /auth) with the sign-out marked as deliberate until it is done. */
export async function whileSigningOut(leave: () => Promise<void>): Promise<void> {
  signingOut = true;
  try {
    await leave();
  } finally {
    signingOut = false;
  }
}

/** The signed-in user, role and clinic; `data` is null when signed out. */
export function useMe() {
  return useQuery(meQueryOptions);
}
