/**
 * Issue 25, Configurações: the clinic's data, opening hours, notification switches and grace period, saved and read
 * back; bad input changes nothing; each switch turns its e-mail off (and only it); another clinic is never touched.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicSettings, ClinicSettingsFormInput } from '@carteirinha/shared/contracts/clinics';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, clinics, emailOutbox } from '../../db/schema.ts';
import { clinicContactOf } from './clinic-settings.ts';
import { PATIENT_NOTICE_QUEUE, type PatientNotice } from '../subscriptions/follow-ups.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicA: string;
let clinicB: string;
let ownerA: string;
let ownerB: string;
let ownerUserA: string;

const as = (cookie: string) => (method: 'GET' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

const FORM: ClinicSettingsFormInput = {
  name: 'Clínica Boa Saúde',
  phone: '(11) 3333-4444',
  contactEmail: 'contato@boasaude.com.br',
  postalCode: '01310-100',
  street: 'Avenida Paulista',
  streetNumber: '1000',
  addressComplement: 'Sala 12',
  district: 'Bela Vista',
  city: 'São Paulo',
  state: 'sp',
  openingHours: { weekdays: { open: '08:00', close: '18:00' }, saturday: { open: '08:00', close: '12:00' } },
  notifications: { paymentConfirmed: false, reminderBefore: true, reminderDue: true, overdue: true },
  graceDays: 10,
};

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  clinicA = (await createClinic(t.db, 'Clínica A das Configurações')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica B das Configurações')).clinicId;
  const owner = await createSignedInUser(t, 'clinic_admin', clinicA);
  ownerA = owner.cookie;
  ownerUserA = owner.userId;
  ownerB = (await createSignedInUser(t, 'clinic_admin', clinicB)).cookie;
});
afterAll(async () => t.close());

describe('Configurações', () => {
  it('reads a clinic that never saved them with every e-mail on, the default grace and the site address', async () => {
    const response = await as(ownerB)('GET', '/api/clinic/settings');
    expect(response.statusCode, response.body).toBe(200);
    const settings = response.json<ClinicSettings>();
    expect(settings).toMatchObject({
      name: 'Clínica B das Configurações',
      openingHours: { weekdays: null, saturday: null },
      notifications: { paymentConfirmed: true, reminderBefore: true, reminderDue: true, overdue: true },
      graceDays: 5,
    });
    expect(settings.cnpj).toMatch(/^\d{14}$/);
    expect(settings.siteUrl).toMatch(/^http:\/\/clinica-.+\.localhost:3999$/);
  });

  it('saves and reads back every field, audited, with the CNPJ untouched', async () => {
    const [before] = await t.db.select({ cnpj: clinics.cnpj }).from(clinics).where(eq(clinics.id, clinicA));
    const saved = await as(ownerA)('PUT', '/api/clinic/settings', { ...FORM, cnpj: '11222333000181' });
    expect(saved.statusCode, saved.body).toBe(200);
    const read = (await as(ownerA)('GET', '/api/clinic/settings')).json<ClinicSettings>();
    expect(read).toEqual(saved.json());
    expect(read).toMatchObject({
      name: 'Clínica Boa Saúde',
      cnpj: before!.cnpj,
      contactEmail: 'contato@boasaude.com.br',
      postalCode: '01310100',
      street: 'Avenida Paulista',
      streetNumber: '1000',
      addressComplement: 'Sala 12',
      district: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
      openingHours: FORM.openingHours,
      notifications: FORM.notifications,
      graceDays: 10,
    });
    expect(read.phone?.replace(/\D/g, '')).toBe('1133334444');
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'clinic.settings_updated'), eq(auditLog.entityId, clinicA))).orderBy(desc(auditLog.createdAt)).limit(1);
    expect(audit?.actorUserId).toBe(ownerUserA);
    // Clinic B is untouched.
    expect((await as(ownerB)('GET', '/api/clinic/settings')).json<ClinicSettings>().name).toBe('Clínica B das Configurações');
  });

  it('refuses bad input with the catalogue’s pt-BR words and changes nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...FORM, name: 'X' }, messages.clinicSettings.nameRequired],
      [{ ...FORM, state: 'São Paulo' }, messages.clinicSettings.stateInvalid],
      [{ ...FORM, openingHours: { weekdays: { open: '18:00', close: '08:00' }, saturday: null } }, messages.clinicSettings.closeAfterOpen],
      [{ ...FORM, openingHours: { weekdays: { open: '25:00', close: '26:00' }, saturday: null } }, messages.clinicSettings.timeInvalid],
      [{ ...FORM, contactEmail: 'nao-e-email' }, messages.validation.invalidEmail],
    ];
    for (const [body, message] of cases) {
      const response = await as(ownerA)('PUT', '/api/clinic/settings', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body).toContain(message);
    }
    const read = (await as(ownerA)('GET', '/api/clinic/settings')).json<ClinicSettings>();
    expect(read.name).toBe('Clínica Boa Saúde');
    expect(read.openingHours).toEqual(FORM.openingHours);
  });

  it('gives the clinic’s site its hours and contact on one line each (the landing page draws them)', async () => {
    expect(await clinicContactOf(t.db, clinicA)).toEqual({
      openingHours: FORM.openingHours,
      phone: expect.stringMatching(/3333/),
      contactEmail: 'contato@boasaude.com.br',
      address: 'Avenida Paulista, 1000 Sala 12 — Bela Vista, São Paulo/SP — CEP 01310-100',
    });
    // A clinic that never said anything shows nothing rather than "closed".
    expect(await clinicContactOf(t.db, clinicB)).toEqual({ openingHours: null, phone: null, contactEmail: null, address: null });
  });
});

describe('the notification switches', () => {
  const confirmedNotice = (userId: string): PatientNotice => ({
    kind: 'confirmed',
    userId,
    planName: 'Plano Essencial',
    amountCents: 4990,
    expiresAt: new Date('2026-12-26T12:00:00Z'),
    benefitsStartAt: null,
    now: new Date('2026-11-26T12:00:00Z'),
  });
  const reminderNotice = (userId: string): PatientNotice => ({ kind: 'reminderDue', userId, planName: 'Plano Essencial', amountCents: 4990, dueDate: '2026-12-10' });

  async function mailsTo(email: string): Promise<string[]> {
    await settleWork(t);
    const rows = await t.db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.to, email));
    return rows.map((row) => row.subject);
  }

  it('turns off the e-mail it names, and only that one; the other clinic still sends it', async () => {
    const patientA = await createSignedInUser(t, 'patient', clinicA);
    const patientB = await createSignedInUser(t, 'patient', clinicB);
    const before = { a: (await mailsTo(patientA.email)).length, b: (await mailsTo(patientB.email)).length };
    for (const patient of [patientA, patientB]) {
      await t.app.jobs.enqueue(PATIENT_NOTICE_QUEUE, JSON.parse(JSON.stringify(confirmedNotice(patient.userId))));
      await t.app.jobs.enqueue(PATIENT_NOTICE_QUEUE, JSON.parse(JSON.stringify(reminderNotice(patient.userId))));
    }
    const mailsA = (await mailsTo(patientA.email)).slice(before.a);
    const mailsB = (await mailsTo(patientB.email)).slice(before.b);
    // Clinic A turned 'Pagamento confirmado' off (FORM) and kept the reminders on.
    expect(mailsA).toEqual([messages.paymentNotices.reminderDueSubject]);
    expect(mailsB.sort()).toEqual([messages.paymentNotices.confirmedSubject, messages.paymentNotices.reminderDueSubject].sort());
  });
});
