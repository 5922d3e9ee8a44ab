import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@carteirinha/shared/roles';
import { createClinic, createSignedInUser, createTestApp, type TestApp } from '../../test/helpers.ts';
import { registerAccessControl } from './access-control.ts';
import { createCallerReader } from '../modules/auth/caller.ts';

let t: TestApp;
let clinicA: { clinicId: string; planId: string };
let clinicB: { clinicId: string; planId: string };
const cookies = {} as Record<Role | 'none', string>;

beforeAll(async () => {
  t = await createTestApp();
  clinicA = await createClinic(t.db, 'Clínica A');
  clinicB = await createClinic(t.db, 'Clínica B');
  cookies.admin = (await createSignedInUser(t, 'admin')).cookie;
  cookies.clinic_admin = (await createSignedInUser(t, 'clinic_admin', clinicA.clinicId)).cookie;
  cookies.clinic_staff = (await createSignedInUser(t, 'clinic_staff', clinicA.clinicId)).cookie;
  cookies.patient = (await createSignedInUser(t, 'patient', clinicA.clinicId)).cookie;
  cookies.none = (await createSignedInUser(t, null)).cookie;
});
afterAll(async () => {
  await t.close();
});

type Caller = Role | 'none' | 'anonymous';
const CALLERS: Caller[] = ['anonymous', 'none', 'admin', 'clinic_admin', 'clinic_staff', 'patient'];

async function call(caller: Caller, url: string) {
  const headers = caller === 'anonymous' ? {} : { cookie: cookies[caller] };
  return t.app.inject({ method: 'GET', url, headers });
}

/** Each portal's API against each caller: 401 signed out, 403 wrong role, 200 the portal's own roles. */
const PORTAL_MATRIX: { url: string; expected: Record<Caller, number> }[] = [
  {
    url: '/api/admin/clinics',
    expected: { anonymous: 401, none: 403, admin: 200, clinic_admin: 403, clinic_staff: 403, patient: 403 },
  },
  {
    url: '/api/admin/outbox',
    expected: { anonymous: 401, none: 403, admin: 200, clinic_admin: 403, clinic_staff: 403, patient: 403 },
  },
  {
    url: '/api/clinic',
    expected: { anonymous: 401, none: 403, admin: 403, clinic_admin: 200, clinic_staff: 200, patient: 403 },
  },
  {
    url: '/api/clinic/subscription-plans',
    expected: { anonymous: 401, none: 403, admin: 403, clinic_admin: 200, clinic_staff: 200, patient: 403 },
  },
  {
    url: '/api/patient/subscription',
    expected: { anonymous: 401, none: 403, admin: 403, clinic_admin: 403, clinic_staff: 403, patient: 200 },
  },
  {
    url: '/api/patient/subscription-plans',
    expected: { anonymous: 401, none: 403, admin: 403, clinic_admin: 403, clinic_staff: 403, patient: 200 },
  },
  {
    url: '/api/me',
    expected: { anonymous: 401, none: 200, admin: 200, clinic_admin: 200, clinic_staff: 200, patient: 200 },
  },
];

describe('the authorization guard', () => {
  for (const row of PORTAL_MATRIX) {
    it(`guards ${row.url}`, async () => {
      const actual: Record<string, number> = {};
      for (const caller of CALLERS) actual[caller] = (await call(caller, row.url)).statusCode;
      expect(actual).toEqual(row.expected);
    });
  }

  it('answers 403 with a pt-BR message', async () => {
    const response = await call('patient', '/api/admin/clinics');
    expect(response.json()).toEqual({ error: { code: 'FORBIDDEN', message: 'Você não tem permissão para fazer isso' } });
  });

  it('gives a clinic user 404 for another clinic’s record, exactly as for an id that does not exist', async () => {
    const own = await call('clinic_staff', `/api/clinic/subscription-plans/${clinicA.planId}`);
    expect(own.statusCode).toBe(200);
    expect(own.json().id).toBe(clinicA.planId);

    const foreign = await call('clinic_staff', `/api/clinic/subscription-plans/${clinicB.planId}`);
    const missing = await call('clinic_staff', '/api/clinic/subscription-plans/00000000-0000-4000-8000-000000000000');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
  });

  it('lets the admin read any clinic, and shows a clinic user only its own clinic', async () => {
    expect((await call('admin', `/api/admin/clinics/${clinicB.clinicId}`)).json().name).toBe('Clínica B');
    expect((await call('clinic_admin', '/api/clinic')).json().id).toBe(clinicA.clinicId);
    const patientPlans = (await call('patient', '/api/patient/subscription-plans')).json();
    expect(patientPlans.items.map((plan: { id: string }) => plan.id)).toEqual([clinicA.planId]);
  });

  it('refuses to start with an /api route that declares no access rule', async () => {
    const app = Fastify();
    registerAccessControl(app, { auth: t.app.auth, db: t.db, settings: t.app.settings, callers: createCallerReader(t.app.auth, t.db) });
    const start = async () => {
      app.get('/api/forgotten', async () => ({ ok: true }));
      await app.ready();
    };
    await expect(start()).rejects.toThrow(/declares no access rule/);
    await app.close().catch(() => undefined);
  });
});
