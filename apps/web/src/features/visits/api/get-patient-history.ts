import { patientHistoryPageSchema, patientSavingsSchema, type PatientPeriodQuery } from '@carteirinha/shared/contracts/patient-visits';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api';

/** The first key of the patient's history queries: a new visit or charge reloads the list and the figures alike. */
export const PATIENT_HISTORY_QUERY_ROOT = 'patient-history';

/** The period as a query string (from/to left out when open). */
function periodSearch(period: PatientPeriodQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (period.from) search.set('from', period.from);
  if (period.to) search.set('to', period.to);
  return search;
}

/** GET /api/patient/history: a page of the period's concluded visits; the previous page stays on screen while the next loads. */
export function usePatientHistory(query: PatientPeriodQuery & { page: number; pageSize: number }) {
  const search = periodSearch(query);
  search.set('page', String(query.page));
  search.set('pageSize', String(query.pageSize));
  return useQuery({
    queryKey: [PATIENT_HISTORY_QUERY_ROOT, 'page', query],
    queryFn: ({ signal }) => apiRequest(`/api/patient/history?${search.toString()}`, patientHistoryPageSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/patient/history/summary: the tiles, what was paid for the plan and the months of the period. */
export function usePatientSavings(period: PatientPeriodQuery) {
  const search = periodSearch(period).toString();
  return useQuery({
    queryKey: [PATIENT_HISTORY_QUERY_ROOT, 'summary', period],
    queryFn: ({ signal }) => apiRequest(`/api/patient/history/summary${search ? `?${search}` : ''}`, patientSavingsSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}
