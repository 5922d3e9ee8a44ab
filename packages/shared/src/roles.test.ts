import { describe, expect, it } from 'vitest';
import { ROLES, portalOfRole, roleNeedsClinic } from './roles.ts';
import { roleHasPermission } from './permissions.ts';

describe('roles', () => {
  it('maps clinic_admin and clinic_staff to the clinic portal', () => {
    expect(ROLES.map(portalOfRole)).toEqual(['admin', 'clinic', 'clinic', 'patient']);
  });

  it('requires a clinic for every role but admin', () => {
    expect(ROLES.filter(roleNeedsClinic)).toEqual(['clinic_admin', 'clinic_staff', 'patient']);
  });

  it('keeps clinic-admin powers away from staff', () => {
    expect(roleHasPermission('clinic_admin', 'subscriptionPlans:write')).toBe(true);
    expect(roleHasPermission('clinic_staff', 'subscriptionPlans:write')).toBe(false);
    expect(roleHasPermission('clinic_staff', 'cards:validate')).toBe(true);
    expect(roleHasPermission('patient', 'cards:validate')).toBe(false);
  });
});
