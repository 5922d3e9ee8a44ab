/**
 * Addresses inside the admin portal that open a page already in a given state, so that a figure or an alert can link
 * to exactly what it names (issue 13, item 9).
 */

/** `/admin/clinicas?busca=<text>`: the clinics list searched for a clinic. */
export const CLINIC_SEARCH_PARAM = 'busca';

export function clinicsSearchPath(text: string): string {
  return `/admin/clinicas?${new URLSearchParams({ [CLINIC_SEARCH_PARAM]: text }).toString()}`;
}

/** `/admin?aprovar=1`: the dashboard with its 'Aprovar Cadastro' dialog open. */
export const APPROVE_REGISTRATIONS_PARAM = 'aprovar';

export const APPROVE_REGISTRATIONS_PATH = `/admin?${APPROVE_REGISTRATIONS_PARAM}=1`;
