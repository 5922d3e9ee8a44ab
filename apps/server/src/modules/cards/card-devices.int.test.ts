import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CardDeviceCheckIn, CardDeviceList, EnrolCardDeviceResponse } from '@carteirinha/shared/contracts/card-devices';
import type { ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { CARD_DEVICES_MAX, deviceCodeStep, deviceTokenOf } from '@carteirinha/shared/device-code';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, cardDevices, cardValidations } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder, type Holder } from './card-fixtures.ts';
import { deviceCodeAtStep } from './device-code.ts';

const HOUR_MS = 60 * 60 * 1000;
const STEP_MS = 30_000;
/** The injected clock, 10 s into a step so that one step either side is unambiguous. */
const START = new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000);
let clock = START;

/**
 * Moves the clock to 10 s into a step after every attempt made so far and answers it: each test starts on a step of
 * its own, so the audit rows of one test are all later than the previous test's.
 */
function freshStep(): Date {
  clock = new Date((Math.floor(clock.getTime() / STEP_MS) + 2) * STEP_MS + 10_000);
  return clock;
}

let t: TestApp;
let clinicA: string;
let clinicB: string;
let staffA: { userId: string; cookie: string };
let staffB: { userId: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp(process.env.DEBUG_LOG ? { LOG_LEVEL: 'error' } : {}, { now: () => clock, ...(process.env.DEBUG_LOG ? { logStream: process.stderr } : {}) });
  clinicA = (await createClinic(t.db, 'Clínica Aparelhos A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Aparelhos B')).clinicId;
  staffA = await createSignedInUser(t, 'clinic_staff', clinicA);
  staffB = await createSignedInUser(t, 'clinic_staff', clinicB);
});
afterAll(() => t.close());

function headers(cookie: string) {
  return { cookie, origin: PUBLIC_URL };
}

async function enrol(holder: Holder, name = 'Chrome em Android') {
  return t.app.inject({ method: 'POST', url: '/api/patient/card-devices', headers: headers(holder.cookie), payload: { name } });
}

async function enrolled(holder: Holder, name?: string): Promise<EnrolCardDeviceResponse> {
  const response = await enrol(holder, name);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<EnrolCardDeviceResponse>();
}

/** What the enrolled device computes offline for its card at `at` (its Web Crypto key holds the same secret). */
function deviceToken(device: EnrolCardDeviceResponse, cardNumber: string, at: Date): string {
  const code = deviceCodeAtStep(Buffer.from(device.secret, 'base64url'), cardNumber, deviceCodeStep(at));
  return deviceTokenOf(cardNumber, device.slot, code);
}

async function validate(cookie: string, cardToken: string): Promise<ValidateCardResponse> {
  const response = await t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: headers(cookie), payload: { cardToken, source: 'qrcode' } });
  // Attempts are recorded at the app's clock: a millisecond apart, their order is the order they were made in.
  clock = new Date(clock.getTime() + 1);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ValidateCardResponse>();
}

async function lastAudit(clinicId: string) {
  const [row] = await t.db.select().from(cardValidations).where(eq(cardValidations.clinicId, clinicId)).orderBy(desc(cardValidations.createdAt)).limit(1);
  return row;
}

const INVALID = { valid: false, outcome: 'not_found', message: messages.cards.invalid };
const EXPIRED = { valid: false, outcome: 'expired', message: messages.cards.expired };

describe('card devices: enrolment', () => {
  it('enrols up to 3 devices per patient, refuses a fourth in pt-BR, and frees a slot when one is removed', async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA);
    const devices: EnrolCardDeviceResponse[] = [];
    for (let index = 0; index < CARD_DEVICES_MAX; index++) devices.push(await enrolled(holder, `Aparelho ${index + 1}`));
    expect(devices.map((device) => device.slot)).toEqual([1, 2, 3]);
    expect(Buffer.from(devices[0]?.secret ?? '', 'base64url')).toHaveLength(32);
    expect(devices[0]?.cards.map((card) => card.id)).toEqual(holder.cards.map((card) => card.id));
    expect(devices[0]?.offlineCodesUntil).toBe(new Date(at.getTime() + 72 * HOUR_MS).toISOString());

    const fourth = await enrol(holder);
    expect(fourth.statusCode).toBe(409);
    expect(fourth.json()).toMatchObject({ error: { message: messages.cardDevices.limitReached } });

    const listed = await t.app.inject({ method: 'GET', url: '/api/patient/card-devices', headers: headers(holder.cookie) });
    expect(listed.json<CardDeviceList>()).toMatchObject({ max: 3 });
    expect(listed.json<CardDeviceList>().items.map((device) => device.name).sort()).toEqual(['Aparelho 1', 'Aparelho 2', 'Aparelho 3']);
    // The secret is given once, never listed.
    expect(listed.body).not.toContain(devices[0]?.secret);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/patient/card-devices/${devices[1]?.device.id}`, headers: headers(holder.cookie) });
    expect(removed.statusCode).toBe(204);
    expect((await enrolled(holder, 'Aparelho novo')).slot).toBe(2);
    const audited = await t.db.select({ action: auditLog.action }).from(auditLog).where(and(eq(auditLog.entity, 'card_device'), eq(auditLog.actorUserId, holder.userId)));
    expect(audited.filter((row) => row.action === 'card_device.enrolled')).toHaveLength(4);
    expect(audited.filter((row) => row.action === 'card_device.revoked')).toHaveLength(1);
  });

  it("never shows, confirms or removes another patient's or another clinic's device", async () => {
    freshStep();
    const owner = await createCardHolder(t, clinicA);
    const sameClinic = await createCardHolder(t, clinicA);
    const otherClinic = await createCardHolder(t, clinicB);
    const device = await enrolled(owner);
    for (const intruder of [sameClinic, otherClinic]) {
      const list = await t.app.inject({ method: 'GET', url: '/api/patient/card-devices', headers: headers(intruder.cookie) });
      expect(list.json<CardDeviceList>().items).toEqual([]);
      const checkIn = await t.app.inject({ method: 'POST', url: `/api/patient/card-devices/${device.device.id}/check-in`, headers: headers(intruder.cookie) });
      expect(checkIn.statusCode).toBe(404);
      const removal = await t.app.inject({ method: 'DELETE', url: `/api/patient/card-devices/${device.device.id}`, headers: headers(intruder.cookie) });
      expect(removal.statusCode).toBe(404);
    }
    const [row] = await t.db.select({ revokedAt: cardDevices.revokedAt }).from(cardDevices).where(eq(cardDevices.id, device.device.id));
    expect(row?.revokedAt).toBeNull();
  });
});

describe('card devices: their codes at the desk', () => {
  it("validates a device's code where a card's is accepted, within the same steps, and records which device", async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1 });
    const device = await enrolled(holder);
    const [own, dependent] = holder.cards;
    for (const offset of [-1, 0, 1]) {
      const answer = await validate(staffA.cookie, deviceToken(device, own?.number ?? '', new Date(at.getTime() + offset * STEP_MS)));
      expect(answer).toMatchObject({ valid: true, outcome: 'valid', message: messages.cards.valid, card: { id: own?.id } });
      expect(await lastAudit(clinicA)).toMatchObject({ cardId: own?.id, method: 'token', result: 'valid', deviceId: device.device.id, userId: staffA.userId });
    }
    // The dependent's card, from the same device: the card number is part of what the key signs.
    expect(await validate(staffA.cookie, deviceToken(device, dependent?.number ?? '', at))).toMatchObject({ valid: true, person: { isDependent: true } });
    // One card's code does not open another card.
    const swapped = deviceToken(device, own?.number ?? '', at).replace(own?.number ?? '', dependent?.number ?? '');
    expect(await validate(staffA.cookie, swapped)).toEqual(INVALID);
    // A code two steps gone is 'expired', as a card's own (issue 23); the device was used at the desk.
    clock = new Date(at.getTime() + 2 * STEP_MS);
    expect(await validate(staffA.cookie, deviceToken(device, own?.number ?? '', at))).toEqual(EXPIRED);
    const [row] = await t.db.select({ lastUsedAt: cardDevices.lastUsedAt }).from(cardDevices).where(eq(cardDevices.id, device.device.id));
    expect(row?.lastUsedAt?.getTime()).toBeGreaterThanOrEqual(at.getTime());
  });

  it("refuses a revoked device's code, another slot's, and a device code at another clinic, with the one answer", async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA);
    const device = await enrolled(holder);
    const number = holder.cards[0]?.number ?? '';
    const token = deviceToken(device, number, at);
    expect(await validate(staffB.cookie, token)).toEqual(INVALID);
    expect(await lastAudit(clinicB)).toMatchObject({ cardId: null, deviceId: null, result: 'not_found' });
    // The same code claimed by a slot where this holder has no device.
    expect(await validate(staffA.cookie, deviceTokenOf(number, 3, token.slice(-8)))).toEqual(INVALID);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/patient/card-devices/${device.device.id}`, headers: headers(holder.cookie) })).statusCode).toBe(204);
    expect(await validate(staffA.cookie, token)).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: holder.cards[0]?.id, deviceId: null, result: 'not_found' });
    // A new device in the freed slot has its own secret: the old device's code stays refused.
    await enrolled(holder);
    expect(await validate(staffA.cookie, token)).toEqual(INVALID);
  });

  it("stops taking a device's codes 72 h after it last reached the server, until it checks in again (fixed clock)", async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA);
    const device = await enrolled(holder);
    const number = holder.cards[0]?.number ?? '';
    // The device last reached the server just under, then just over, 72 h before the fixed clock (the rule reads
    // confirmed_at and the app's clock, nothing else).
    const confirmedAgo = (ms: number) => t.db.update(cardDevices).set({ confirmedAt: new Date(at.getTime() - ms) }).where(eq(cardDevices.id, device.device.id));

    await confirmedAgo(71 * HOUR_MS);
    expect(await validate(staffA.cookie, deviceToken(device, number, at))).toMatchObject({ valid: true });

    await confirmedAgo(72 * HOUR_MS + 60_000);
    expect(await validate(staffA.cookie, deviceToken(device, number, at))).toEqual(EXPIRED);
    expect(await lastAudit(clinicA)).toMatchObject({ result: 'expired', deviceId: device.device.id });

    const checkedInAt = clock;
    const checkIn = await t.app.inject({ method: 'POST', url: `/api/patient/card-devices/${device.device.id}/check-in`, headers: headers(holder.cookie) });
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    expect(checkIn.json<CardDeviceCheckIn>()).toMatchObject({
      confirmedAt: checkedInAt.toISOString(),
      offlineCodesUntil: new Date(checkedInAt.getTime() + 72 * HOUR_MS).toISOString(),
      cards: [{ id: holder.cards[0]?.id, active: true }],
    });
    expect(await validate(staffA.cookie, deviceToken(device, number, at))).toMatchObject({ valid: true });
  });

  it("answers 'Assinatura inativa' to a device code of a card whose subscription has ended, and the check-in says the card is not active", async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA, { status: 'expired', expiresAt: new Date(at.getTime() - HOUR_MS) });
    const device = await enrolled(holder);
    expect(device.cards[0]).toMatchObject({ active: false });
    expect(await validate(staffA.cookie, deviceToken(device, holder.cards[0]?.number ?? '', at))).toMatchObject({ valid: false, outcome: 'inactive' });
  });

  it("the patient's account deletion (LGPD) removes their devices: the codes stop and the names are blanked", async () => {
    const at = freshStep();
    const holder = await createCardHolder(t, clinicA);
    const device = await enrolled(holder, 'Celular da Ana');
    const number = holder.cards[0]?.number ?? '';
    const deletion = await t.app.inject({ method: 'POST', url: '/api/patient/my-data/deletion', headers: headers(holder.cookie), payload: { confirmation: 'EXCLUIR' } });
    expect(deletion.statusCode, deletion.body).toBeLessThan(300);
    expect(await validate(staffA.cookie, deviceToken(device, number, at))).toEqual(INVALID);
    const [row] = await t.db.select({ name: cardDevices.name, revokedAt: cardDevices.revokedAt }).from(cardDevices).where(eq(cardDevices.id, device.device.id));
    expect(row).toMatchObject({ name: messages.myData.deletedDeviceName });
    expect(row?.revokedAt).not.toBeNull();
  });
});
