import type { QueryClient } from '@tanstack/react-query';

/**
 * The first element of every admin portal query key (clinics, plans, dashboard, …). The platform's figures depend on
 * one another — a clinic's plan feeds the MRR, a new clinic changes the dashboard and the plan's clinic count — so a
 * change to any of them reloads all of the admin data instead of guessing which screens it touches.
 */
export const ADMIN_QUERY_ROOT = 'admin';

/** Marks every admin query stale and refetches those on screen (specification §4: lists reload after a change). */
export function invalidateAdminData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [ADMIN_QUERY_ROOT] });
}
