/** Roles stored in `user_roles.role` (specification §6). */
export const ROLES = ['admin', 'clinic_admin', 'clinic_staff', 'patient'] as const;
export type Role = (typeof ROLES)[number];

/** The three portals and the route guards' names (specification §6: admin, clinic, patient). */
export const PORTALS = ['admin', 'clinic', 'patient'] as const;
export type Portal = (typeof PORTALS)[number];

/** pt-BR label of each role (specification §6). */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Super Admin',
  clinic_admin: 'Admin de Clínica',
  clinic_staff: 'Atendente',
  patient: 'Paciente',
};

/** Which portal a role belongs to (DESIGN.md §2 "Tenancy"). */
export function portalOfRole(role: Role): Portal {
  switch (role) {
    case 'admin':
      return 'admin';
    case 'clinic_admin':
    case 'clinic_staff':
      return 'clinic';
    case 'patient':
      return 'patient';
  }
}

/** Where each portal lives in the SPA. */
export const PORTAL_HOME: Record<Portal, string> = {
  admin: '/admin',
  clinic: '/clinica',
  patient: '/paciente',
};

/** Every role but `admin` belongs to one clinic. */
export function roleNeedsClinic(role: Role): boolean {
  return role !== 'admin';
}
