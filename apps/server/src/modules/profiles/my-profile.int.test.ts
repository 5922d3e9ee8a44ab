import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientProfileSchema } from '@carteirinha/shared/contracts/profiles';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, cpfClaims, emailOutbox, profiles, users } from '../../db/schema.ts';
import { createSignedInUser, createTestApp, settleWork, uniqueEmail, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, cpfOfCaller, createPatient, createProgramme, newKey, OTHER_VALID_CPF, VALID_CPF, type Programme } from '../../../test/checkout-kit.ts';
import { multipartFile } from '../../../test/uploads.ts';

let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  programme = await createProgramme(t, 'Clínica do Meu Perfil');
});
afterAll(async () => t.close());

const FORM = { fullName: 'Maria Aparecida Souza', phone: '(11) 98765-4321', birthDate: '1985-04-12' };

function patch(cookie: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'PATCH', url: '/api/patient/profile', headers: { cookie }, payload });
}

async function profileOf(cookie: string) {
  const response = await callAs(t, cookie)('GET', '/api/patient/profile');
  expect(response.statusCode).toBe(200);
  return patientProfileSchema.parse(response.json());
}

function uploadPhoto(cookie: string, file: { payload: Buffer; contentType: string }) {
  return t.app.inject({ method: 'POST', url: '/api/patient/profile/photo', headers: { cookie, 'content-type': file.contentType }, payload: file.payload });
}

describe('PATCH /api/patient/profile', () => {
  it('saves name, phone and birth date in digits and ISO, in the account and the profile, and audits the fields changed', async () => {
    const patient = await createPatient(t, programme);
    const saved = await patch(patient.cookie, FORM);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ fullName: 'Maria Aparecida Souza', phone: '11987654321', birthDate: '1985-04-12', cpf: null, email: patient.email });
    expect(await profileOf(patient.cookie)).toMatchObject({ fullName: 'Maria Aparecida Souza', phone: '11987654321', birthDate: '1985-04-12' });
    const [account] = await t.db.select({ name: users.name }).from(users).where(eq(users.id, patient.userId));
    expect(account?.name).toBe('Maria Aparecida Souza');
    const audits = await t.db.select({ details: auditLog.details }).from(auditLog).where(and(eq(auditLog.entityId, patient.userId), eq(auditLog.action, 'profile.updated')));
    expect(audits).toEqual([{ details: { fields: expect.arrayContaining(['fullName', 'phone', 'birthDate']) } }]);

    // Emptied phone and birth date are cleared; nothing changed writes no audit row.
    const cleared = await patch(patient.cookie, { fullName: FORM.fullName, phone: '', birthDate: '' });
    expect(cleared.json()).toMatchObject({ phone: null, birthDate: null });
    await patch(patient.cookie, { fullName: FORM.fullName, phone: '', birthDate: '' });
    expect(await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, patient.userId), eq(auditLog.action, 'profile.updated')))).toHaveLength(2);
  });

  it('refuses bad values with the pt-BR message and changes nothing', async () => {
    const patient = await createPatient(t, programme);
    await patch(patient.cookie, FORM);
    const before = await profileOf(patient.cookie);
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [change, message] of [
      [{ fullName: 'Al' }, messages.validation.fullNameMin],
      [{ phone: '98765' }, messages.validation.invalidPhone],
      [{ birthDate: '1985-02-30' }, messages.patientProfile.invalidBirthDate],
      [{ birthDate: tomorrow }, messages.patientProfile.invalidBirthDate],
      [{ birthDate: '1899-12-31' }, messages.patientProfile.invalidBirthDate],
      [{ cpf: '123.456.789-00' }, messages.validation.invalidCpf],
    ] as const) {
      const refused = await patch(patient.cookie, { ...FORM, ...change });
      expect(refused.statusCode, JSON.stringify(change)).toBe(400);
      expect(refused.json().error.message).toBe(message);
    }
    expect(await profileOf(patient.cookie)).toEqual(before);
  });

  it('takes a first CPF once, claimed in the clinic; then it is read-only, and another person’s CPF is refused', async () => {
    const first = await createPatient(t, programme);
    const second = await createPatient(t, programme);
    const taken = await patch(first.cookie, { ...FORM, cpf: VALID_CPF });
    expect(taken.statusCode).toBe(200);
    expect(taken.json().cpf).toBe('52998224725');
    const claims = await t.db.select({ userId: cpfClaims.userId }).from(cpfClaims).where(and(eq(cpfClaims.clinicId, programme.clinicId), eq(cpfClaims.cpf, '52998224725')));
    expect(claims).toEqual([{ userId: first.userId }]);

    const changed = await patch(first.cookie, { ...FORM, cpf: OTHER_VALID_CPF });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error.message).toBe(messages.checkoutRules.cpfLocked);
    // The same CPF again (the form sends what it shows) is no change.
    expect((await patch(first.cookie, { ...FORM, cpf: VALID_CPF })).statusCode).toBe(200);

    const impostor = await patch(second.cookie, { ...FORM, cpf: VALID_CPF });
    expect(impostor.statusCode).toBe(409);
    expect(impostor.json().error.message).toBe(messages.checkoutRules.cpfTaken);
    expect((await profileOf(second.cookie)).cpf).toBeNull();
  });

  it('keeps the CPF a checkout recorded', async () => {
    const patient = await createPatient(t, programme);
    expect((await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey())).statusCode).toBe(201);
    const saved = await patch(patient.cookie, { ...FORM, cpf: undefined });
    expect(saved.json().cpf).toBe(cpfOfCaller(patient.cookie));
  });

  it('is the patient’s own: no session is 401, and a clinic’s staff has no patient profile to write', async () => {
    expect((await t.app.inject({ method: 'PATCH', url: '/api/patient/profile', payload: FORM })).statusCode).toBe(401);
    const staff = await createSignedInUser(t, 'clinic_staff', programme.clinicId);
    expect((await patch(staff.cookie, FORM)).statusCode).toBe(403);
  });
});

describe('POST /api/patient/profile/photo', () => {
  it('re-encodes the photo as WebP under an unguessable name, and removes the old file', async () => {
    const patient = await createPatient(t, programme);
    const png = await sharp({ create: { width: 900, height: 1200, channels: 3, background: '#336699' } }).png().toBuffer();
    const first = await uploadPhoto(patient.cookie, multipartFile('eu.png', 'image/png', png));
    expect(first.statusCode).toBe(200);
    const firstUrl: string = first.json().photoUrl;
    expect(firstUrl).toMatch(/^\/uploads\/avatars\/[0-9a-f]{32}\.webp$/);
    const served = await t.app.inject({ method: 'GET', url: firstUrl });
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(512);

    const second = await uploadPhoto(patient.cookie, multipartFile('eu.jpg', 'image/jpeg', await sharp(png).jpeg().toBuffer()));
    const secondUrl: string = second.json().photoUrl;
    expect(secondUrl).not.toBe(firstUrl);
    // The old file is gone from the uploads folder (a URL not found is answered with the site's page).
    expect(fs.existsSync(path.join(t.config.dataDir, firstUrl))).toBe(false);
    expect(fs.existsSync(path.join(t.config.dataDir, secondUrl))).toBe(true);
    const [row] = await t.db.select({ avatarUrl: profiles.avatarUrl }).from(profiles).where(eq(profiles.id, patient.userId));
    expect(row?.avatarUrl).toBe(secondUrl);
  });

  it('refuses a file that is not an image and one over 2 MB with the specification’s words, keeping the photo', async () => {
    const patient = await createPatient(t, programme);
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#996633' } }).png().toBuffer();
    const kept: string = (await uploadPhoto(patient.cookie, multipartFile('eu.png', 'image/png', png))).json().photoUrl;

    const text = await uploadPhoto(patient.cookie, multipartFile('eu.png', 'image/png', Buffer.from('não sou uma imagem')));
    expect(text.statusCode).toBe(400);
    expect(text.json().error.message).toBe('Por favor, selecione uma imagem válida');
    const big = await uploadPhoto(patient.cookie, multipartFile('grande.png', 'image/png', Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)])));
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe('A imagem deve ter no máximo 2MB');
    expect((await profileOf(patient.cookie)).photoUrl).toBe(kept);
  });
});

describe('changing the e-mail (better-auth change-email)', () => {
  it('sends the link to the new address, on the clinic’s host; the e-mail changes only when it is opened', async () => {
    const patient = await createPatient(t, programme);
    const newEmail = uniqueEmail('novo-email');
    const asked = await t.app.inject({ method: 'POST', url: '/api/auth/change-email', headers: { cookie: patient.cookie }, payload: { newEmail } });
    expect(asked.statusCode).toBe(200);
    await settleWork(t);
    expect((await profileOf(patient.cookie)).email).toBe(patient.email);
    const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, newEmail));
    expect(mail?.subject).toBe(messages.email.changeEmailSubject);
    const link = /href="([^"]+verify-email[^"]+)"/.exec(mail?.html ?? '')?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBeDefined();
    const url = new URL(link ?? '');
    // A clinic's patient gets the clinic's host (its subdomain), never the platform's.
    expect(url.hostname).not.toBe(new URL(t.config.publicUrl).hostname);
    expect(mail?.html).toContain('Clínica do Meu Perfil');

    const opened = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}`, headers: { cookie: patient.cookie } });
    expect(opened.statusCode).toBe(302);
    expect(opened.headers.location).toBe('/paciente/perfil');
    expect((await profileOf(patient.cookie)).email).toBe(newEmail);
  });
});
