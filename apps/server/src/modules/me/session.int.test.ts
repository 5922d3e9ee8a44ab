import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, sessions } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const probe = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/api/session', headers });

describe('GET /api/session (the web session probe, issue 13 item 14)', () => {
  it('answers a signed-out visitor with 200 and null, not a 401 the browser would log', async () => {
    const response = await probe();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toBeNull();
    // /api/me keeps its contract: signed out is 401.
    expect((await t.app.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('answers a signed-in user exactly as /api/me does', async () => {
    const { clinicId } = await createClinic(t.db, 'Clínica da Sonda');
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const session = await probe({ cookie: staff.cookie });
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: staff.cookie } });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toEqual(me.json());
    expect(session.json()).toMatchObject({ role: 'clinic_staff', clinic: { id: clinicId, name: 'Clínica da Sonda' } });
  });

  it("still refuses another clinic's session on a clinic's host, as /api/me does", async () => {
    const visited = await createClinic(t.db, 'Clínica Visitada');
    const [row] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, visited.clinicId));
    const own = await createClinic(t.db, 'Clínica Própria');
    const patient = await createSignedInUser(t, 'patient', own.clinicId);
    const wrongClinic = await probe({ cookie: patient.cookie, host: `${row?.slug}.localhost` });
    expect(wrongClinic.statusCode).toBe(401);
  });

  it('answers null for a cookie whose session is gone (signed out elsewhere)', async () => {
    const patient = await createSignedInUser(t, 'patient', (await createClinic(t.db, 'Clínica do Cookie')).clinicId);
    await t.db.delete(sessions).where(eq(sessions.userId, patient.userId));
    const gone = await probe({ cookie: patient.cookie });
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toBeNull();
  });
});
