/**
 * Every query of the clinic's Dashboard starts with this key; a visit recorded or moved, or the settings saved,
 * refresh them. A module of its own, so the screens that refresh them do not load the Dashboard's schemas.
 */
export const CLINIC_DASHBOARD_QUERY_ROOT = 'clinic-dashboard';
