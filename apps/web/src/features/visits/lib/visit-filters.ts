import { visitExportQuerySchema, type VisitStatus } from '@carteirinha/shared/contracts/visits';
import type { VisitFilters } from '../api/list-visits';

/** What the 'Filtros' form holds: text of each control, '' for "any". */
export type VisitFilterForm = { from: string; to: string; status: VisitStatus | ''; serviceId: string; registeredBy: string };

export const EMPTY_FILTER_FORM: VisitFilterForm = { from: '', to: '', status: '', serviceId: '', registeredBy: '' };

/** The form's values as the list's filters: the empty ones left out. */
export function filtersOf(form: VisitFilterForm): VisitFilters {
  const filters: VisitFilters = {};
  if (form.from) filters.from = form.from;
  if (form.to) filters.to = form.to;
  if (form.status) filters.status = form.status;
  if (form.serviceId) filters.serviceId = form.serviceId;
  if (form.registeredBy) filters.registeredBy = form.registeredBy;
  return filters;
}

/** The filters back in the form, to edit them again. */
export function formOf(filters: VisitFilters): VisitFilterForm {
  return { ...EMPTY_FILTER_FORM, ...filters };
}

/** How many filters are on (the period counts once). */
export function activeFilterCount(filters: VisitFilters): number {
  return [filters.from || filters.to, filters.status, filters.serviceId, filters.registeredBy].filter(Boolean).length;
}

/**
 * The filters checked by the same schema the server reads them with (GET /api/clinic/visits.csv): the period in
 * order. Returns the message of the first problem, with the field it concerns, or the filters.
 */
export function checkFilters(form: VisitFilterForm): { ok: true; filters: VisitFilters } | { ok: false; field: keyof VisitFilterForm; message: string } {
  const filters = filtersOf(form);
  const parsed = visitExportQuerySchema.safeParse(filters);
  if (parsed.success) return { ok: true, filters };
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  const known: readonly (keyof VisitFilterForm)[] = ['from', 'to', 'status', 'serviceId', 'registeredBy'];
  return { ok: false, field: known.find((name) => name === field) ?? 'from', message: issue?.message ?? '' };
}
