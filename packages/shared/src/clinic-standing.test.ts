import { describe, expect, it } from 'vitest';
import { clinicStandingAllows, clinicStandingOf } from './clinic-standing.ts';
import { PERMISSIONS, roleHasPermission } from './permissions.ts';
import { ROLES } from './roles.ts';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('clinicStandingOf', () => {
  it('is open for an active clinic and a trial with days left, closed otherwise', () => {
    expect(clinicStandingOf({ status: 'active', trialEndsAt: null }, NOW)).toBe('open');
    expect(clinicStandingOf({ status: 'trial', trialEndsAt: '2026-03-11T00:00:00Z' }, NOW)).toBe('open');
    expect(clinicStandingOf({ status: 'trial', trialEndsAt: new Date('2026-03-10T11:59:59Z') }, NOW)).toBe('trialExpired');
    expect(clinicStandingOf({ status: 'suspended', trialEndsAt: null }, NOW)).toBe('suspended');
    expect(clinicStandingOf({ status: 'cancelled', trialEndsAt: null }, NOW)).toBe('cancelled');
  });
});

describe('clinicStandingAllows', () => {
  it('lets every role use all its permissions while the clinic is open', () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) expect(clinicStandingAllows(role, permission, 'open')).toBe(true);
    }
  });

  it('keeps, while the clinic is closed, only the patient’s own records (ADR 010)', () => {
    for (const standing of ['trialExpired', 'suspended', 'cancelled'] as const) {
      const kept = ROLES.flatMap((role) =>
        PERMISSIONS.filter((permission) => role !== 'admin' && roleHasPermission(role, permission) && clinicStandingAllows(role, permission, standing)).map(
          (permission) => `${role} ${permission}`,
        ),
      );
      expect(kept).toEqual(['patient patient:self']);
    }
  });
});
