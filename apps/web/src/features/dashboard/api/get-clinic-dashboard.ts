import {
  clinicChartsSchema,
  clinicDashboardSchema,
  firstStepsSchema,
  type ClinicCharts,
  type ClinicDashboard,
  type FirstSteps,
} from '@carteirinha/shared/contracts/dashboard';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';
import { CLINIC_DASHBOARD_QUERY_ROOT } from './clinic-dashboard-key';

// The Dashboard's queries are short-lived on purpose (staleTime 0): the figures move with each visit the desk
// records, so coming back to the Dashboard asks again.

/** GET /api/clinic/dashboard: the four KPIs and the recent visits (clinic_admin). */
export function getClinicDashboard(signal?: AbortSignal): Promise<ClinicDashboard> {
  return apiRequest('/api/clinic/dashboard', clinicDashboardSchema, { signal });
}

/** GET /api/clinic/dashboard/charts: visits and validations per day, revenue per week, over the last 12 weeks. */
export function getClinicCharts(signal?: AbortSignal): Promise<ClinicCharts> {
  return apiRequest('/api/clinic/dashboard/charts', clinicChartsSchema, { signal });
}

/** GET /api/clinic/first-steps: the checklist, the site's address and whether the sign-up awaits approval. */
export function getFirstSteps(signal?: AbortSignal): Promise<FirstSteps> {
  return apiRequest('/api/clinic/first-steps', firstStepsSchema, { signal });
}

export function useClinicDashboard() {
  return useQuery(
    queryOptions({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT, 'kpis'], queryFn: ({ signal }) => getClinicDashboard(signal), staleTime: 0 }),
  );
}

export function useClinicCharts() {
  return useQuery(queryOptions({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT, 'charts'], queryFn: ({ signal }) => getClinicCharts(signal), staleTime: 0 }));
}

export function useFirstSteps() {
  return useQuery(queryOptions({ queryKey: [CLINIC_DASHBOARD_QUERY_ROOT, 'first-steps'], queryFn: ({ signal }) => getFirstSteps(signal), staleTime: 0 }));
}
