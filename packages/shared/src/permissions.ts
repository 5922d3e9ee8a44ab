import type { Role } from './roles.ts';

/**
 * Every permission the product checks, as typed strings. The server enforces them with
 * `requirePermission`; the web only uses them to hide what a user cannot do.
 */
export const PERMISSIONS = [
  'platform:manage',
  'outbox:read',
  'clinic:read',
  'clinic:manage',
  'subscriptionPlans:read',
  'subscriptionPlans:write',
  'cards:validate',
  'visits:write',
  /** A patient's own records: profile, subscriptions, payment history (kept while the clinic is closed, ADR 010). */
  'patient:self',
  /** Using the clinic's programme: choosing and subscribing to a plan, showing the card to be validated. */
  'patient:programme',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ['platform:manage', 'outbox:read'],
  clinic_admin: [
    'clinic:read',
    'clinic:manage',
    'subscriptionPlans:read',
    'subscriptionPlans:write',
    'cards:validate',
    'visits:write',
  ],
  clinic_staff: ['clinic:read', 'subscriptionPlans:read', 'cards:validate', 'visits:write'],
  patient: ['patient:self', 'patient:programme'],
};

/** Whether a role grants a permission. */
export function roleHasPermission(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
