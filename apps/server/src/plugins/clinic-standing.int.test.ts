import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@carteirinha/shared/roles';
import { clinics } from '../db/schema.ts';
import { PUBLIC_URL, createClinic, createSignedInUser, createTestApp, signIn, type TestApp } from '../../test/helpers.ts';

/**
 * ADR 010: what each role of a suspended, cancelled or expired clinic may still do, on the platform's host (where
 * the access guard decides) and on the clinic's own host (closed by the host-site hook).
 */

type ClosedCase = { standing: 'suspended' | 'cancelled' | 'trialExpired'; status: 'suspended' | 'cancelled' | 'trial'; teamMessage: string };

const CASES: ClosedCase[] = [
  {
    standing: 'suspended',
    status: 'suspended',
    teamMessage: 'O acesso da clínica à Carteirinha está suspenso. Fale com a equipe da Carteirinha para reativá-lo.',
  },
  {
    standing: 'cancelled',
    status: 'cancelled',
    teamMessage: 'A clínica foi cancelada na Carteirinha. Fale com a equipe da Carteirinha se precisar dos dados da clínica.',
  },
  {
    standing: 'trialExpired',
    status: 'trial',
    teamMessage: 'O período de teste da clínica terminou. Fale com a equipe da Carteirinha para contratar um plano.',
  },
];

const PATIENT_MESSAGE =
  'O programa de cartão da sua clínica está indisponível no momento. Você ainda pode consultar seus dados, sua assinatura e seu histórico de pagamentos.';

type Member = { email: string; cookie: string };
type ClinicPeople = { clinicId: string; slug: string; people: Record<Exclude<Role, 'admin'>, Member> };

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function clinicWithPeople(name: string): Promise<ClinicPeople> {
  const { clinicId } = await createClinic(t.db, name);
  const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  const member = async (role: Exclude<Role, 'admin'>) => {
    const { email, cookie } = await createSignedInUser(t, role, clinicId);
    return { email, cookie };
  };
  return {
    clinicId,
    slug: row!.slug,
    people: { clinic_admin: await member('clinic_admin'), clinic_staff: await member('clinic_staff'), patient: await member('patient') },
  };
}

async function close(clinicId: string, closed: ClosedCase): Promise<void> {
  const trialEndsAt = closed.standing === 'trialExpired' ? new Date(Date.now() - 60_000) : null;
  await t.db.update(clinics).set({ status: closed.status, trialEndsAt, approvedAt: new Date() }).where(eq(clinics.id, clinicId));
  // Changed behind the routes' back: the host cache may hold the clinic as open (the sign-ups' e-mails resolved its
  // host to build their links), as it would for up to 30 s after a direct database change.
  await t.app.hostResolver.invalidate();
}

function call(cookie: string, method: 'GET' | 'PATCH', url: string, host?: string, payload?: Record<string, unknown>) {
  return t.app.inject({
    method,
    url,
    headers: { cookie, origin: host ? `http://${host}` : PUBLIC_URL, ...(host ? { host } : {}) },
    ...(payload ? { payload } : {}),
  });
}

function expectRefused(response: LightMyRequestResponse, message: string): void {
  expect(response.statusCode, response.body).toBe(403);
  expect(response.json()).toEqual({ error: { code: 'CLINIC_INACTIVE', message } });
}

/** Every clinic and patient endpoint each role may use while its clinic is open. */
type TeamRole = 'clinic_admin' | 'clinic_staff';
const TEAM_CALLS: { method: 'GET' | 'PATCH'; url: string; payload?: Record<string, unknown>; roles: TeamRole[] }[] = [
  { method: 'GET', url: '/api/clinic', roles: ['clinic_admin', 'clinic_staff'] },
  { method: 'GET', url: '/api/clinic/branding', roles: ['clinic_admin', 'clinic_staff'] },
  { method: 'GET', url: '/api/clinic/subscription-plans', roles: ['clinic_admin', 'clinic_staff'] },
  { method: 'PATCH', url: '/api/clinic/branding', payload: { displayName: 'Nome Novo', primaryColor: '#123456' }, roles: ['clinic_admin'] },
];

describe('an open clinic (the control)', () => {
  it("its team and patients use their endpoints on the platform's host", async () => {
    const open = await clinicWithPeople('Clínica Aberta');
    for (const { method, url, payload, roles } of TEAM_CALLS) {
      for (const role of roles) {
        const response = await call(open.people[role].cookie, method, url, undefined, payload);
        expect(response.statusCode, `${role} ${method} ${url}`).toBe(200);
      }
    }
    expect((await call(open.people.patient.cookie, 'GET', '/api/patient/subscription')).statusCode).toBe(200);
    expect((await call(open.people.patient.cookie, 'GET', '/api/patient/subscription-plans')).statusCode).toBe(200);
    const me = await call(open.people.clinic_staff.cookie, 'GET', '/api/me');
    expect(me.json().clinic).toMatchObject({ standing: 'open', awaitingApproval: false });
  });
});

for (const closed of CASES) {
  describe(`a ${closed.standing} clinic`, () => {
    let clinic: ClinicPeople;

    beforeAll(async () => {
      clinic = await clinicWithPeople(`Clínica ${closed.standing}`);
      await close(clinic.clinicId, closed);
    });

    for (const role of ['clinic_admin', 'clinic_staff'] satisfies TeamRole[]) {
      it(`${role}: signs in and reads /api/me on the platform's host, and every clinic endpoint says why it is refused`, async () => {
        const member = clinic.people[role];
        expect((await signIn(t.app, member.email)).statusCode).toBe(200);
        const me = await call(member.cookie, 'GET', '/api/me');
        expect(me.statusCode).toBe(200);
        expect(me.json()).toMatchObject({ role, clinic: { id: clinic.clinicId, standing: closed.standing } });

        for (const { method, url, payload } of TEAM_CALLS.filter((c) => c.roles.includes(role))) {
          expectRefused(await call(member.cookie, method, url, undefined, payload), closed.teamMessage);
        }
        // A refused write changed nothing.
        const [row] = await t.db.select({ displayName: clinics.displayName }).from(clinics).where(eq(clinics.id, clinic.clinicId));
        expect(row?.displayName).toBeNull();
      });
    }

    it("patient: keeps their own records on the platform's host, not the programme", async () => {
      const patient = clinic.people.patient;
      expect((await signIn(t.app, patient.email)).statusCode).toBe(200);
      expect((await call(patient.cookie, 'GET', '/api/me')).json()).toMatchObject({ role: 'patient', clinic: { standing: closed.standing } });
      const subscription = await call(patient.cookie, 'GET', '/api/patient/subscription');
      expect(subscription.statusCode).toBe(200);
      expect(subscription.json()).toEqual({ subscription: null });
      expectRefused(await call(patient.cookie, 'GET', '/api/patient/subscription-plans'), PATIENT_MESSAGE);
      // What the role never had stays a plain FORBIDDEN.
      expect((await call(patient.cookie, 'GET', '/api/clinic')).json().error.code).toBe('FORBIDDEN');
    });

    it("every role: the clinic's own host is closed, and its page points patients to the platform's site", async () => {
      const host = `${clinic.slug}.localhost`;
      for (const role of ['clinic_admin', 'clinic_staff', 'patient'] as const) {
        for (const url of ['/api/me', '/api/clinic', '/api/patient/subscription']) {
          const response = await call(clinic.people[role].cookie, 'GET', url, host);
          expect(response.statusCode, `${role} ${url}`).toBe(404);
          expect(response.json().error.message).toMatch(/temporariamente indisponível/);
        }
        const signedIn = await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          headers: { host, origin: `http://${host}` },
          payload: { email: clinic.people[role].email, password: 'senha-forte-123' },
        });
        expect(signedIn.statusCode).toBe(404);
        expect(signedIn.cookies).toHaveLength(0);
      }
      const page = await t.app.inject({ method: 'GET', url: '/', headers: { host } });
      expect(page.statusCode).toBe(404);
      expect(page.body).toContain('Pacientes da clínica podem entrar pelo site da Carteirinha para consultar os próprios dados.');
    });
  });
}

describe('reopening', () => {
  it('a suspended clinic made active again serves its team at once (the status is read on every request)', async () => {
    const clinic = await clinicWithPeople('Clínica Reaberta');
    await close(clinic.clinicId, CASES[0]!);
    expect((await call(clinic.people.clinic_staff.cookie, 'GET', '/api/clinic')).statusCode).toBe(403);
    await t.db.update(clinics).set({ status: 'active' }).where(eq(clinics.id, clinic.clinicId));
    expect((await call(clinic.people.clinic_staff.cookie, 'GET', '/api/clinic')).statusCode).toBe(200);
  });
});
