import { userProfileSchema, type UserProfile } from '@carteirinha/shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ADMIN_QUERY_ROOT } from '@/lib/admin-queries';
import { apiRequest } from '@/lib/api';

/** GET /api/admin/users/:id: 'Ver Perfil' — the row's data plus phone, e-mail confirmation and open sessions. */
export function getUserProfile(userId: string, signal?: AbortSignal): Promise<UserProfile> {
  return apiRequest(`/api/admin/users/${encodeURIComponent(userId)}`, userProfileSchema, { signal });
}

export function userProfileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [ADMIN_QUERY_ROOT, 'users', 'profile', userId],
    queryFn: ({ signal }) => getUserProfile(userId, signal),
  });
}

/** The profile of `userId`; nothing is asked while `userId` is null (the profile panel is closed). */
export function useUserProfile(userId: string | null) {
  return useQuery({ ...userProfileQueryOptions(userId ?? ''), enabled: userId !== null });
}
