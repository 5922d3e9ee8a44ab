/** Every query of /clinica/planos starts with this key. */
export const CLINIC_PLANS_QUERY_ROOT = 'clinic-plans';
