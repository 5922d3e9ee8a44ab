import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';
import { cards, clinics, dependents, subscriptions } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { createClinic, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder } from './card-fixtures.ts';
import { isValidCardNumber } from './card-number.ts';
import { CARD_SECRET_BYTES } from './card-token.ts';
import { issueCardsForSubscription } from './issue.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestApp;
let clinicA: string;
let clinicB: string;

beforeAll(async () => {
  t = await createTestApp();
  clinicA = (await createClinic(t.db, 'Clínica Cartões A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Cartões B')).clinicId;
});
afterAll(() => t.close());

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('issueCardsForSubscription', () => {
  it('issues one card for the holder and each dependent up to max_members, with valid numbers and sealed 20-byte secrets', async () => {
    // Four dependents on a plan of three people: the holder and the first two dependents get cards.
    const holder = await createCardHolder(t, clinicA, { maxMembers: 3, dependents: 4 });
    expect(holder.cards).toHaveLength(3);
    expect(holder.cards[0]?.dependentId).toBeNull();
    const firstTwo = await t.db.select({ id: dependents.id, fullName: dependents.fullName }).from(dependents).where(eq(dependents.holderUserId, holder.userId));
    const covered = new Set(holder.cards.map((card) => card.dependentId).filter((id) => id !== null));
    expect([...covered].map((id) => firstTwo.find((row) => row.id === id)?.fullName).sort()).toEqual(['Dependente 1', 'Dependente 2']);
    const rows = await t.db.select().from(cards).where(eq(cards.subscriptionId, holder.subscriptionId));
    for (const row of rows) {
      expect(isValidCardNumber(row.number)).toBe(true);
      expect(row.secretEncrypted.startsWith('v1.')).toBe(true);
      expect(Buffer.from(t.app.cardBox.open(row.secretEncrypted), 'hex')).toHaveLength(CARD_SECRET_BYTES);
    }
    expect(new Set(rows.map((row) => row.number)).size).toBe(3);
  });

  it('is idempotent, in a platform or a clinic-scoped transaction, and adds a card for a dependent added later', async () => {
    const holder = await createCardHolder(t, clinicA, { maxMembers: 3, dependents: 1 });
    expect(holder.cards).toHaveLength(2);
    expect(await issueCardsForSubscription(t.db, holder.subscriptionId, t.app.cardBox)).toBe(0);
    expect(await t.db.transaction((tx) => issueCardsForSubscription(tx, holder.subscriptionId, t.app.cardBox))).toBe(0);
    await t.db.insert(dependents).values({ clinicId: clinicA, holderUserId: holder.userId, fullName: 'Dependente Novo' });
    expect(await withTenantScope(t.db, clinicA, (tx) => issueCardsForSubscription(tx, holder.subscriptionId, t.app.cardBox))).toBe(1);
    expect(await withTenantScope(t.db, clinicA, (tx) => issueCardsForSubscription(tx, holder.subscriptionId, t.app.cardBox))).toBe(0);
    expect(await t.db.select().from(cards).where(eq(cards.subscriptionId, holder.subscriptionId))).toHaveLength(3);
  });

  it("cannot issue another clinic's subscription from a clinic's scope (row-level security hides it)", async () => {
    const holder = await createCardHolder(t, clinicB);
    await t.db.delete(cards).where(eq(cards.subscriptionId, holder.subscriptionId));
    expect(await withTenantScope(t.db, clinicA, (tx) => issueCardsForSubscription(tx, holder.subscriptionId, t.app.cardBox))).toBe(0);
  });
});

describe('GET /api/patient/cards', () => {
  it("lists the holder's card first, then the dependents', with the plan's discounts", async () => {
    const holder = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1, discounts: { consultas: 40, exames: 30, procedimentos: 10 } });
    const response = await get(holder.cookie, '/api/patient/cards');
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json<{ items: PatientCard[] }>().items;
    expect(items.map((card) => [card.isDependent, card.personName, card.active])).toEqual([
      [false, items[0]?.holderName, true],
      [true, 'Dependente 1', true],
    ]);
    expect(items[0]).toMatchObject({ planName: 'Plano Família', subscriptionStatus: 'active', inactiveReason: null, maxMembers: 2, discounts: { consultas: 40, exames: 30, procedimentos: 10 } });
    expect(JSON.stringify(items)).not.toContain('secret');
  });

  it('shows an inactive card greyed with the reason, and no token (409)', async () => {
    const holder = await createCardHolder(t, clinicA, { status: 'overdue', expiresAt: new Date(Date.now() - 30 * DAY_MS) });
    const [card] = (await get(holder.cookie, '/api/patient/cards')).json<{ items: PatientCard[] }>().items;
    expect(card).toMatchObject({ active: false, inactiveReason: messages.cards.inactiveReasonSuspended });
    const token = await get(holder.cookie, `/api/patient/cards/${card?.id}/token`);
    expect(token.statusCode).toBe(409);
    expect(token.json()).toEqual({ error: { code: 'CONFLICT', message: messages.cards.inactiveReasonSuspended } });
  });

  it('a closed clinic shows the card greyed (the list is the patient’s own record; the token is the programme)', async () => {
    const closed = (await createClinic(t.db, 'Clínica Fechada')).clinicId;
    const holder = await createCardHolder(t, closed);
    await t.db.update(clinics).set({ status: 'suspended' }).where(eq(clinics.id, closed));
    const list = await get(holder.cookie, '/api/patient/cards');
    expect(list.statusCode).toBe(200);
    expect(list.json<{ items: PatientCard[] }>().items[0]).toMatchObject({ active: false, inactiveReason: messages.cards.inactiveReasonClinicClosed });
    expect((await get(holder.cookie, `/api/patient/cards/${holder.cards[0]?.id}/token`)).statusCode).toBe(403);
  });

  it('is empty for a patient without cards', async () => {
    const holder = await createCardHolder(t, clinicA, { status: 'pending' });
    await t.db.delete(cards).where(eq(cards.subscriptionId, holder.subscriptionId));
    expect((await get(holder.cookie, '/api/patient/cards')).json()).toEqual({ items: [] });
  });

  it('keeps a canceled subscription’s card listed, greyed', async () => {
    const holder = await createCardHolder(t, clinicA);
    await t.db.update(subscriptions).set({ status: 'canceled', createdAt: new Date(Date.now() - 400 * DAY_MS) }).where(eq(subscriptions.id, holder.subscriptionId));
    const items = (await get(holder.cookie, '/api/patient/cards')).json<{ items: PatientCard[] }>().items;
    expect(items.map((card) => card.id)).toEqual([holder.cards[0]?.id]);
    expect(items[0]?.active).toBe(false);
  });
});

describe('GET /api/patient/cards/:id/token and /image', () => {
  it("answers the token of the patient's own card and 404 for anyone else's", async () => {
    const holder = await createCardHolder(t, clinicA);
    const other = await createCardHolder(t, clinicA);
    const response = await get(holder.cookie, `/api/patient/cards/${holder.cards[0]?.id}/token`);
    expect(response.statusCode).toBe(200);
    const body = response.json<{ token: string; refreshAt: string; periodSeconds: number }>();
    expect(body.token).toBe(`C1.${holder.cards[0]?.number}.${body.token.slice(-8)}`);
    expect(body.periodSeconds).toBe(30);
    expect(new Date(body.refreshAt).getTime() - Date.now()).toBeLessThanOrEqual(30_000);
    expect((await get(other.cookie, `/api/patient/cards/${holder.cards[0]?.id}/token`)).statusCode).toBe(404);
    expect((await get(other.cookie, `/api/patient/cards/${holder.cards[0]?.id}/image`)).statusCode).toBe(404);
  });

  it('renders the card as a PNG, for an active and for an inactive card', async () => {
    const active = await createCardHolder(t, clinicA);
    const inactive = await createCardHolder(t, clinicA, { status: 'canceled', expiresAt: new Date(Date.now() - DAY_MS) });
    for (const holder of [active, inactive]) {
      const response = await get(holder.cookie, `/api/patient/cards/${holder.cards[0]?.id}/image`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 1012, 638]);
    }
  });
});
