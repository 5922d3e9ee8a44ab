import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinics, emailOutbox } from '../../db/schema.ts';
import { PUBLIC_URL, TEST_PASSWORD, apiAs, createClinic, createSignedInUser, createTestApp, settleWork, uniqueEmail, type TestApp } from '../../../test/helpers.ts';
import { enqueueAccountMail } from '../auth/account-mail.ts';
import { PATIENT_NOTICE_QUEUE, type PatientNotice } from '../subscriptions/follow-ups.ts';

/**
 * Issue 23: everything a clinic's people receive carries the clinic's name and colour, and every link in it leads to
 * the clinic's own site — never the platform's name or host. One case per kind of e-mail a clinic's patient, team or
 * owner can get; each is sent the way the product sends it (the request, or the job its transition writes).
 */
let t: TestApp;
let clinicId: string;
let clinicOrigin: string;
let clinicHost: string;
const BRAND = 'Sorriso Pleno';
const COLOUR = '#9333ea';

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  clinicId = (await createClinic(t.db, 'Clínica Sorriso Pleno Ltda')).clinicId;
  const [clinic] = await t.db.update(clinics).set({ displayName: BRAND, primaryColor: COLOUR }).where(eq(clinics.id, clinicId)).returning({ slug: clinics.slug });
  clinicHost = `${clinic!.slug}.localhost:3999`;
  clinicOrigin = `http://${clinicHost}`;
});
afterAll(async () => {
  await t.close();
});

async function lastMailTo(email: string, subject?: string) {
  await settleWork(t);
  const where = subject ? and(eq(emailOutbox.to, email), eq(emailOutbox.subject, subject)) : eq(emailOutbox.to, email);
  const [mail] = await t.db.select().from(emailOutbox).where(where).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

function linksIn(text: string): URL[] {
  return [...text.matchAll(/https?:\/\/\S+/g)].map((match) => new URL(match[0]));
}

/** The clinic's name and colour, no trace of the platform's, and every link on the clinic's own host. */
function expectClinicsOwn(mail: { text: string; html: string; subject: string }): URL[] {
  expect(mail.text).toContain(BRAND);
  expect(mail.html).toContain(COLOUR);
  for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain('Carteirinha');
  const links = linksIn(mail.text);
  expect(links.length).toBeGreaterThan(0);
  for (const link of links) expect(link.origin).toBe(clinicOrigin);
  return links;
}

function onClinicHost(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: { host: clinicHost, origin: clinicOrigin }, payload });
}

describe("every e-mail to a clinic's people is the clinic's", () => {
  it("the confirmation of a patient's sign-up on the clinic's site, whose link lands back on that site", async () => {
    const email = uniqueEmail('paciente-marca');
    expect((await onClinicHost('/api/auth/sign-up/email', { email, password: TEST_PASSWORD, name: 'Paciente da Marca' })).statusCode).toBe(200);
    const [link] = expectClinicsOwn(await lastMailTo(email));
    expect(link!.pathname).toBe('/api/auth/verify-email');
    // Opened, it confirms the address and lands on the clinic's site, not the platform's sales page.
    const opened = await t.app.inject({ method: 'GET', url: `${link!.pathname}${link!.search}`, headers: { host: clinicHost } });
    expect(opened.statusCode).toBe(302);
    const landing = new URL(String(opened.headers.location), clinicOrigin);
    expect(landing.origin).toBe(clinicOrigin);
    expect(landing.pathname).toBe('/');
  });

  it('a password reset asked for on any host', async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    const asked = await t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: { origin: PUBLIC_URL }, payload: { email: patient.email, redirectTo: '/auth/redefinir-senha' } });
    expect(asked.statusCode).toBe(200);
    expectClinicsOwn(await lastMailTo(patient.email));
  });

  it('"someone tried to sign up with your address"', async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    expect((await onClinicHost('/api/auth/sign-up/email', { email: patient.email, password: TEST_PASSWORD, name: 'Outra Pessoa' })).statusCode).toBe(200);
    expectClinicsOwn(await lastMailTo(patient.email));
  });

  it("the failed sign-ins' ceiling", async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    await enqueueAccountMail(t.app.jobs, { kind: 'signInCeiling', email: staff.email });
    expectClinicsOwn(await lastMailTo(staff.email));
  });

  it("the invitation to the clinic's team", async () => {
    const admin = await createSignedInUser(t, 'admin');
    const email = uniqueEmail('equipe-marca');
    const invited = await apiAs(() => t, () => admin.cookie)('POST', '/api/admin/user-roles', { email, role: 'clinic_staff', clinicId });
    expect(invited.statusCode).toBe(201);
    expectClinicsOwn(await lastMailTo(email));
  });

  it("the clinic's approval, to its owner", async () => {
    const { clinicId: newClinicId } = await createClinic(t.db, 'Sorriso Novo');
    const [row] = await t.db
      .update(clinics)
      .set({ status: 'trial', trialEndsAt: new Date(Date.now() + 10 * 24 * 3600_000), approvedAt: null, displayName: BRAND, primaryColor: COLOUR })
      .where(eq(clinics.id, newClinicId))
      .returning({ slug: clinics.slug });
    const owner = await createSignedInUser(t, 'clinic_admin', newClinicId);
    const admin = await createSignedInUser(t, 'admin');
    expect((await apiAs(() => t, () => admin.cookie)('POST', `/api/admin/clinics/${newClinicId}/approve`)).statusCode).toBe(200);
    const mail = await lastMailTo(owner.email, 'Cadastro aprovado: o site de Sorriso Novo está no ar');
    expect(mail.html).toContain(COLOUR);
    for (const link of linksIn(mail.text)) expect(link.origin).toBe(`http://${row!.slug}.localhost:3999`);
    for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain('Carteirinha');
  });

  const notices: Array<(userId: string) => PatientNotice> = [
    (userId) => ({ kind: 'confirmed', userId, planName: 'Plano Sorriso', amountCents: 4990, expiresAt: new Date(Date.now() + 30 * 24 * 3600_000), benefitsStartAt: null, now: new Date() }),
    (userId) => ({ kind: 'reminderBefore', userId, planName: 'Plano Sorriso', amountCents: 4990, dueDate: '2026-12-10' }),
    (userId) => ({ kind: 'reminderDue', userId, planName: 'Plano Sorriso', amountCents: 4990, dueDate: '2026-12-10' }),
    (userId) => ({ kind: 'overdue', userId, planName: 'Plano Sorriso', amountCents: 4990, dueDate: '2026-12-10', benefitsUntil: null }),
    (userId) => ({ kind: 'suspended', userId, planName: 'Plano Sorriso', amountCents: 4990, dueDate: '2026-12-10' }),
    (userId) => ({ kind: 'refundedAfterCancellation', userId, planName: 'Plano Sorriso', amountCents: 4990 }),
    (userId) => ({ kind: 'cancellationReceipt', userId, planName: 'Plano Sorriso', amountCents: 4990, protocol: 'CAN-20261126-ABCDEF12', canceledAt: new Date(), refundCents: 0, benefitsUntil: null }),
  ];
  for (const noticeOf of notices) {
    const kind = noticeOf('00000000-0000-4000-8000-000000000000').kind;
    it(`the patient's notice '${kind}'`, async () => {
      const patient = await createSignedInUser(t, 'patient', clinicId);
      // The sign-up's own confirmation goes first, so the newest e-mail is the notice.
      await settleWork(t);
      await t.app.jobs.enqueue(PATIENT_NOTICE_QUEUE, JSON.parse(JSON.stringify(noticeOf(patient.userId))));
      const [link] = expectClinicsOwn(await lastMailTo(patient.email));
      expect(link!.pathname).toBe('/paciente/assinatura');
    });
  }
});
