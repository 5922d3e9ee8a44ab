import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import type { ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { cards, cardValidations, dependents } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder, type Holder } from './card-fixtures.ts';
import { CARD_TOKEN_PERIOD_SECONDS } from './card-token.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const STEP_MS = CARD_TOKEN_PERIOD_SECONDS * 1000;
/** The injected clock: 10 s into a token step, so ±1 and ±2 steps are unambiguous. */
const START = new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + 10_000);
let clock = START;

let t: TestApp;
let clinicA: string;
let clinicB: string;
let staffA: { userId: string; cookie: string };
let adminA: { userId: string; cookie: string };
let staffB: { userId: string; cookie: string };
let holderA: Holder;
let holderB: Holder;
const holderCpf = generateCpf();

beforeAll(async () => {
  t = await createTestApp({}, { now: () => clock });
  clinicA = (await createClinic(t.db, 'Clínica Validação A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Validação B')).clinicId;
  staffA = await createSignedInUser(t, 'clinic_staff', clinicA);
  adminA = await createSignedInUser(t, 'clinic_admin', clinicA);
  staffB = await createSignedInUser(t, 'clinic_staff', clinicB);
  holderA = await createCardHolder(t, clinicA, { cpf: holderCpf, maxMembers: 2, dependents: 1 });
  holderB = await createCardHolder(t, clinicB);
});
afterAll(() => t.close());

/**
 * Each validation moves the clock on 2 s: the attempts are recorded at the app's clock, so their order is the order
 * they were made in, and the per-user limit (counted over the clock's last minute) sees a receptionist's pace.
 */
async function validate(cookie: string, cardToken: string, source: 'qrcode' | 'manual' = 'qrcode') {
  const response = await t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie, origin: PUBLIC_URL }, payload: { cardToken, source } });
  clock = new Date(clock.getTime() + 2_000);
  return response;
}

async function answerOf(cookie: string, cardToken: string, source: 'qrcode' | 'manual' = 'qrcode'): Promise<ValidateCardResponse> {
  const response = await validate(cookie, cardToken, source);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ValidateCardResponse>();
}

async function tokenOf(holder: Holder, cardIndex = 0): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: `/api/patient/cards/${holder.cards[cardIndex]?.id}/token`, headers: { cookie: holder.cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ token: string }>().token;
}

async function lastAudit(clinicId: string) {
  const [row] = await t.db.select().from(cardValidations).where(eq(cardValidations.clinicId, clinicId)).orderBy(desc(cardValidations.createdAt)).limit(1);
  return row;
}

/** A CPF as people type it: 123.456.789-09. */
function formattedCpf(cpf: string): string {
  return `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
}

const INVALID = { valid: false, outcome: 'not_found', message: messages.cards.invalid };
const INACTIVE = { valid: false, outcome: 'inactive', message: messages.cards.inactiveSubscription };
const EXPIRED = { valid: false, outcome: 'expired', message: messages.cards.expired };

describe('POST /api/clinic/card-validations: the rotating token', () => {
  it("accepts the current token and the one either side; later, the card's own code is 'expired', an earlier one unknown", async () => {
    clock = START;
    const token = await tokenOf(holderA);
    expect(token).toMatch(/^C1\.\d{16}\.\d{8}$/);
    for (const offset of [-1, 0, 1]) {
      clock = new Date(START.getTime() + offset * STEP_MS);
      expect((await answerOf(staffA.cookie, token)).valid, `step ${offset}`).toBe(true);
    }
    // A code from a step that has not come yet is no code of the card's: unknown, with no hint of why.
    clock = new Date(START.getTime() - 2 * STEP_MS);
    expect(await answerOf(staffA.cookie, token), 'step -2').toEqual(INVALID);
    // The card really showed it a minute or five ago (a QR left open, a screenshot): the desk asks for the card again
    // instead of refusing a paying patient (issue 23); never 'assinatura inativa'.
    for (const offset of [2, 10]) {
      clock = new Date(START.getTime() + offset * STEP_MS);
      expect(await answerOf(staffA.cookie, token), `step ${offset}`).toEqual(EXPIRED);
    }
    const audited = await t.db.select({ result: cardValidations.result }).from(cardValidations).orderBy(desc(cardValidations.createdAt)).limit(2);
    expect(audited.map((row) => row.result)).toEqual(['expired', 'expired']);
    // On from the latest attempt: the next ones are recorded after it.
    clock = new Date(START.getTime() + 11 * STEP_MS);
  });

  it('answers a valid card with what the reception needs, and nothing more (LGPD)', async () => {
    const answer = await answerOf(staffA.cookie, await tokenOf(holderA));
    expect(answer).toEqual({
      valid: true,
      outcome: 'valid',
      message: messages.cards.valid,
      subscription: { planName: 'Plano Família', status: 'active', expiresAt: expect.any(String), maxMembers: 2 },
      card: { id: holderA.cards[0]?.id, number: holderA.cards[0]?.number },
      person: { name: expect.any(String), photoUrl: null, isDependent: false },
      discounts: { consultas: 30, exames: 25, procedimentos: 20 },
    });
    expect(JSON.stringify(answer)).not.toContain(holderCpf);
  });

  it("validates a dependent's card as the dependent", async () => {
    const answer = await answerOf(staffA.cookie, await tokenOf(holderA, 1));
    expect(answer.person).toEqual({ name: 'Dependente 1', photoUrl: null, isDependent: true });
    expect(answer.card?.id).toBe(holderA.cards[1]?.id);
  });

  it('refuses a forged code, a token of a number that does not exist, and garbage, all with the same answer', async () => {
    const token = await tokenOf(holderA);
    const code = token.slice(-8);
    const forged = `${token.slice(0, -8)}${String((Number(code) + 1) % 100_000_000).padStart(8, '0')}`;
    expect(await answerOf(staffA.cookie, forged)).toEqual(INVALID);
    expect(await answerOf(staffA.cookie, `C1.8076000000000000.${code}`)).toEqual(INVALID);
    expect(await answerOf(staffA.cookie, 'qualquer coisa')).toEqual(INVALID);
    expect(await answerOf(staffA.cookie, '')).toEqual(INVALID);
  });

  it("refuses a valid token of another clinic's programme, and the attempt is recorded in the caller's clinic", async () => {
    const token = await tokenOf(holderB);
    expect(await answerOf(staffB.cookie, token)).toMatchObject({ valid: true });
    expect(await answerOf(staffA.cookie, token)).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ clinicId: clinicA, userId: staffA.userId, cardId: null, method: 'token', result: 'not_found' });
  });
});

describe('POST /api/clinic/card-validations: inactive subscriptions', () => {
  const cases: Array<[string, Parameters<typeof createCardHolder>[2]]> = [
    ['overdue past the grace days', { status: 'overdue', expiresAt: new Date(Date.now() - 10 * DAY_MS) }],
    ['canceled', { status: 'canceled', canceledAt: new Date(Date.now() - DAY_MS), expiresAt: new Date(Date.now() - DAY_MS) }],
    ['pending (never paid)', { status: 'pending', expiresAt: null }],
    ['expired', { status: 'expired', expiresAt: new Date(Date.now() - 40 * DAY_MS) }],
    ['in its carência', { benefitsStartAt: new Date(Date.now() + 10 * DAY_MS) }],
  ];
  for (const [label, options] of cases) {
    it(`${label}: 'Assinatura inativa' and no other detail`, async () => {
      const holder = await createCardHolder(t, clinicA, options);
      const card = holder.cards[0];
      expect(card).toBeDefined();
      const answer = await answerOf(staffA.cookie, card?.number ?? '', 'manual');
      expect(answer).toEqual(INACTIVE);
      expect(await lastAudit(clinicA)).toMatchObject({ cardId: card?.id, method: 'number', result: 'inactive', userId: staffA.userId });
    });
  }

  it('an overdue subscription within the grace days still validates (ADR 013), shown as active', async () => {
    const holder = await createCardHolder(t, clinicA, { status: 'overdue', expiresAt: new Date(Date.now() - 2 * DAY_MS) });
    const answer = await answerOf(staffA.cookie, holder.cards[0]?.number ?? '', 'manual');
    expect(answer.valid).toBe(true);
    expect(answer.subscription?.status).toBe('active');
  });

  it('a canceled subscription keeps its card until it expires', async () => {
    const holder = await createCardHolder(t, clinicA, { status: 'active', canceledAt: new Date(), expiresAt: new Date(Date.now() + 5 * DAY_MS) });
    expect((await answerOf(staffA.cookie, holder.cards[0]?.number ?? '', 'manual')).valid).toBe(true);
  });
});

describe('POST /api/clinic/card-validations: card number and CPF', () => {
  it('finds the card by its printed number, with spaces, dots or dashes', async () => {
    const number = holderA.cards[0]?.number ?? '';
    const grouped = number.replace(/(\d{4})(?=\d)/g, '$1 ');
    const dotted = number.replace(/(\d{4})(?=\d)/g, '$1.');
    for (const typed of [number, grouped, dotted]) {
      const answer = await answerOf(staffA.cookie, typed, 'manual');
      expect(answer.valid).toBe(true);
      // Knowing the number is not holding the card: the answer says how it was found and asks for the photo or a document.
      expect(answer.message).toBe(messages.cards.validByNumber);
      expect(answer.card?.id).toBe(holderA.cards[0]?.id);
    }
    expect(await lastAudit(clinicA)).toMatchObject({ method: 'number', result: 'valid', cardId: holderA.cards[0]?.id });
  });

  it('takes only a live token from the QR reader: a QR holding just the printed number is an unknown card (issue 22)', async () => {
    const number = holderA.cards[0]?.number ?? '';
    for (const scanned of [number, number.replace(/(\d{4})(?=\d)/g, '$1 ')]) expect(await answerOf(staffA.cookie, scanned, 'qrcode')).toEqual(INVALID);
    // Recorded as a number that found nothing: the card is not even looked up.
    expect(await lastAudit(clinicA)).toMatchObject({ method: 'number', result: 'not_found', cardId: null, userId: staffA.userId });
    // The same card's live token still validates there.
    expect(await answerOf(staffA.cookie, await tokenOf(holderA), 'qrcode')).toMatchObject({ valid: true, message: messages.cards.valid });
  });

  it('refuses a number with a wrong check digit without looking it up', async () => {
    const number = holderA.cards[0]?.number ?? '';
    const wrong = `${number.slice(0, 15)}${(Number(number[15]) + 1) % 10}`;
    expect(await answerOf(staffA.cookie, wrong, 'manual')).toEqual(INVALID);
  });

  it("finds the holder's card by CPF on Validar Cartão (manual), formatted or not", async () => {
    for (const typed of [holderCpf, formattedCpf(holderCpf)]) {
      const answer = await answerOf(adminA.cookie, typed, 'manual');
      expect(answer.valid).toBe(true);
      expect(answer.message).toBe(messages.cards.validByCpf);
      expect(answer.card?.id).toBe(holderA.cards[0]?.id);
      expect(answer.person?.isDependent).toBe(false);
    }
    expect(await lastAudit(clinicA)).toMatchObject({ method: 'cpf', result: 'valid', userId: adminA.userId });
  });

  it("does not take a CPF from the QR scanner, nor find another clinic's holder by CPF", async () => {
    expect(await answerOf(staffA.cookie, holderCpf, 'qrcode')).toEqual(INVALID);
    const cpfB = generateCpf();
    await createCardHolder(t, clinicB, { cpf: cpfB });
    expect(await answerOf(staffA.cookie, cpfB, 'manual')).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ method: 'cpf', result: 'not_found', cardId: null });
  });
});

describe("POST /api/clinic/card-validations: a dependent's CPF", () => {
  it("finds the dependent's own card by the dependent's CPF, formatted or not, and answers as the dependent", async () => {
    const dependentCpf = generateCpf();
    const holder = await createCardHolder(t, clinicA, { cpf: generateCpf(), maxMembers: 3, dependents: 2, dependentCpfs: [generateCpf(), dependentCpf] });
    const [second] = await t.db.select({ id: dependents.id }).from(dependents).where(and(eq(dependents.holderUserId, holder.userId), eq(dependents.cpf, dependentCpf)));
    const card = holder.cards.find((issued) => issued.dependentId !== null && issued.dependentId === second?.id);
    expect(card).toBeDefined();
    for (const typed of [dependentCpf, formattedCpf(dependentCpf)]) {
      const answer = await answerOf(staffA.cookie, typed, 'manual');
      expect(answer).toMatchObject({ valid: true, message: messages.cards.validByCpf, card: { id: card?.id }, person: { name: 'Dependente 2', photoUrl: null, isDependent: true } });
      expect(JSON.stringify(answer)).not.toContain(dependentCpf);
    }
    expect(await lastAudit(clinicA)).toMatchObject({ clinicId: clinicA, userId: staffA.userId, cardId: card?.id, method: 'cpf', result: 'valid' });
  });

  it("answers 'Assinatura inativa' for a dependent of a lapsed subscription, and 'inválido' for a dependent with no card", async () => {
    const lapsedCpf = generateCpf();
    const lapsed = await createCardHolder(t, clinicA, { status: 'expired', expiresAt: new Date(Date.now() - 40 * DAY_MS), maxMembers: 2, dependents: 1, dependentCpfs: [lapsedCpf] });
    expect(await answerOf(staffA.cookie, lapsedCpf, 'manual')).toEqual(INACTIVE);
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: lapsed.cards[1]?.id, method: 'cpf', result: 'inactive' });
    // A plan for one person: the dependent is registered but not covered, so has no card.
    const uncoveredCpf = generateCpf();
    const uncovered = await createCardHolder(t, clinicA, { maxMembers: 1, dependents: 1, dependentCpfs: [uncoveredCpf] });
    expect(uncovered.cards).toHaveLength(1);
    expect(await answerOf(staffA.cookie, uncoveredCpf, 'manual')).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: null, method: 'cpf', result: 'not_found' });
  });

  it("gives another clinic's dependent, a revoked card and an unknown CPF the same answer", async () => {
    const cpfB = generateCpf();
    await createCardHolder(t, clinicB, { maxMembers: 2, dependents: 1, dependentCpfs: [cpfB] });
    expect(await answerOf(staffB.cookie, cpfB, 'manual')).toMatchObject({ valid: true, person: { isDependent: true } });
    expect(await answerOf(staffA.cookie, cpfB, 'manual')).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ clinicId: clinicA, userId: staffA.userId, cardId: null, method: 'cpf', result: 'not_found' });
    const revokedCpf = generateCpf();
    const revoked = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1, dependentCpfs: [revokedCpf] });
    await t.db.update(cards).set({ revokedAt: new Date() }).where(eq(cards.id, revoked.cards[1]?.id ?? ''));
    expect(await answerOf(staffA.cookie, revokedCpf, 'manual')).toEqual(INVALID);
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: revoked.cards[1]?.id, method: 'cpf', result: 'not_found' });
    expect(await answerOf(staffA.cookie, generateCpf(), 'manual')).toEqual(INVALID);
  });

  it("answers no card for a CPF that two people of the clinic carry, and asks for the card number (issue 22)", async () => {
    const cpf = generateCpf();
    const ownPlan = await createCardHolder(t, clinicA, { cpf, status: 'expired', expiresAt: new Date(Date.now() - 40 * DAY_MS) });
    expect(await answerOf(staffA.cookie, cpf, 'manual')).toEqual(INACTIVE);
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: ownPlan.cards[0]?.id });
    // A second person with the same CPF (data from before a CPF was one person's): neither card is answered.
    const family = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1, dependentCpfs: [cpf] });
    expect(await answerOf(staffA.cookie, cpf, 'manual')).toEqual({ valid: false, outcome: 'not_found', message: messages.cards.cpfAmbiguous });
    expect(await lastAudit(clinicA)).toMatchObject({ cardId: null, method: 'cpf', result: 'not_found' });
    // Each card still validates by its number.
    expect(await answerOf(staffA.cookie, family.cards[1]?.number ?? '', 'manual')).toMatchObject({ valid: true, person: { isDependent: true } });
  });
});

describe('POST /api/clinic/card-validations: who may call it, and the audit', () => {
  it('refuses a patient and a user without a clinic role (no audit row for them)', async () => {
    const before = await t.db.select().from(cardValidations);
    expect((await validate(holderA.cookie, holderA.cards[0]?.number ?? '')).statusCode).toBe(403);
    const noRole = await createSignedInUser(t, null);
    expect((await validate(noRole.cookie, holderA.cards[0]?.number ?? '')).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { origin: PUBLIC_URL }, payload: { cardToken: 'x' } })).statusCode).toBe(401);
    expect(await t.db.select().from(cardValidations)).toHaveLength(before.length);
  });

  it("records every attempt of clinic B's staff in clinic B only", async () => {
    await answerOf(staffB.cookie, holderA.cards[0]?.number ?? '');
    const rows = await t.db.select().from(cardValidations).where(and(eq(cardValidations.clinicId, clinicB), eq(cardValidations.userId, staffB.userId)));
    expect(rows.some((row) => row.result === 'not_found' && row.cardId === null && row.method === 'number')).toBe(true);
    const inA = await t.db.select().from(cardValidations).where(and(eq(cardValidations.clinicId, clinicA), eq(cardValidations.userId, staffB.userId)));
    expect(inA).toEqual([]);
  });
});

describe('POST /api/clinic/card-validations: rate limit per clinic user', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ CARD_VALIDATIONS_PER_MINUTE: '3' });
  });
  afterAll(() => limited.close());

  it('answers 429 in pt-BR after the limit, for that user only', async () => {
    const clinic = (await createClinic(limited.db, 'Clínica Limite')).clinicId;
    const first = await createSignedInUser(limited, 'clinic_staff', clinic);
    const second = await createSignedInUser(limited, 'clinic_staff', clinic);
    const call = (cookie: string) =>
      limited.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie, origin: PUBLIC_URL }, payload: { cardToken: '123' } });
    for (let index = 0; index < 3; index += 1) expect((await call(first.cookie)).statusCode).toBe(200);
    const refused = await call(first.cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: { code: 'RATE_LIMITED', message: messages.cards.validationRateLimited } });
    expect((await call(second.cookie)).statusCode).toBe(200);
  });
});
