import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDeletionResponse, CardAccessPage, MyDataExport } from '@carteirinha/shared/contracts/my-data';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, cardValidations, cards, cpfClaims, dependents, jobs, payments, profiles, sessions, subscriptions, users, visits } from '../../db/schema.ts';
import { isTombstoneAddress } from '../../lib/tombstone.ts';
import { PROVIDER_WORK_QUEUE } from '../subscriptions/follow-ups.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, signIn, signUp, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicA: string;
let clinicB: string;
let holder: Holder;
let neighbour: Holder;
let stranger: Holder;
let staff: { userId: string; cookie: string };
let owner: { userId: string };

const DAY_MS = 24 * 60 * 60 * 1000;

function get(cookie: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

function deleteAccount(cookie: string, confirmation: string) {
  return t.app.inject({ method: 'POST', url: '/api/patient/my-data/deletion', headers: { cookie, origin: PUBLIC_URL }, payload: { confirmation } });
}

async function addCharge(holderOf: Holder, clinicId: string, status: 'received' | 'pending', amountCents: number): Promise<string> {
  const [row] = await t.db
    .insert(payments)
    .values({ clinicId, subscriptionId: holderOf.subscriptionId, provider: 'local', providerPaymentId: `t_${randomBytes(6).toString('hex')}`, method: 'pix', amountCents, dueDate: '2026-01-10', status, paidAt: status === 'received' ? new Date() : null })
    .returning({ id: payments.id });
  if (!row) throw new Error('charge not created');
  return row.id;
}

async function validate(cardId: string, clinicId: string, userId: string, at: Date): Promise<void> {
  await t.db.insert(cardValidations).values({ clinicId, userId, cardId, method: 'number', result: 'valid', createdAt: at });
}

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false' });
  clinicA = (await createClinic(t.db, 'Clínica Alfa')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Beta')).clinicId;
  staff = await createSignedInUser(t, 'clinic_staff', clinicA);
  owner = await createSignedInUser(t, 'clinic_admin', clinicA);
  holder = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1, cpf: '52998224725', dependentCpfs: ['11144477735'] });
  neighbour = await createCardHolder(t, clinicA, { cpf: '39053344705' });
  stranger = await createCardHolder(t, clinicB);
  await t.db.update(profiles).set({ fullName: 'Maria Titular', phone: '11987654321', birthDate: '1990-05-01' }).where(eq(profiles.id, holder.userId));
  await t.db.update(users).set({ name: 'Maria Titular' }).where(eq(users.id, holder.userId));
  await t.db.insert(cpfClaims).values({ clinicId: clinicA, cpf: '52998224725', userId: holder.userId });
  await addCharge(holder, clinicA, 'received', 14990);
  await addCharge(neighbour, clinicA, 'received', 7777);
  await addCharge(stranger, clinicB, 'received', 8888);
  const [ownCard, dependentCard] = holder.cards;
  if (!ownCard || !dependentCard) throw new Error('cards not issued');
  const base = Date.now() - 10 * DAY_MS;
  await validate(ownCard.id, clinicA, staff.userId, new Date(base));
  await validate(dependentCard.id, clinicA, owner.userId, new Date(base + DAY_MS));
  await validate(ownCard.id, clinicA, staff.userId, new Date(base + 2 * DAY_MS));
  await validate(neighbour.cards[0]?.id ?? '', clinicA, staff.userId, new Date(base));
  await t.db.insert(cardValidations).values({ clinicId: clinicB, userId: null, cardId: stranger.cards[0]?.id ?? null, method: 'token', result: 'valid', createdAt: new Date(base) });
});
afterAll(() => t.close());

describe('Baixar meus dados', () => {
  it("holds the patient's own rows and none of another patient's or another clinic's", async () => {
    const response = await get(holder.cookie, '/api/patient/my-data/export.json');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="meus-dados.json"');
    const data = response.json<MyDataExport>();
    expect(data.clinic.name).toBe('Clínica Alfa');
    expect(data.account.name).toBe('Maria Titular');
    expect(data.profile).toMatchObject({ fullName: 'Maria Titular', cpf: '52998224725', phone: '11987654321', birthDate: '1990-05-01' });
    expect(data.subscriptions.map((row) => row.id)).toEqual([holder.subscriptionId]);
    expect(data.charges.map((row) => row.amountCents)).toEqual([14990]);
    expect(data.cards.map((row) => row.number).sort()).toEqual(holder.cards.map((card) => card.number).sort());
    expect(data.cards.every((row) => !('secretEncrypted' in row))).toBe(true);
    expect(data.dependents.map((row) => row.fullName)).toEqual(['Dependente 1']);
    expect(data.cardValidations).toHaveLength(3);
    // Nothing of the neighbour (same clinic) or the stranger (another clinic): their ids, card numbers and charges
    // (R$ 77,77 and R$ 88,88) — looked for as values, not as digits a random id may happen to carry.
    const text = JSON.stringify(data);
    for (const other of [neighbour, stranger]) {
      expect(text).not.toContain(other.userId);
      expect(text).not.toContain(other.subscriptionId);
      for (const card of other.cards) expect(text).not.toContain(card.number);
    }
    expect(text).not.toMatch(/"amountCents":(7777|8888)\b/);
  });

  it("prints the same in HTML under the clinic's name, escaped", async () => {
    await t.db.update(profiles).set({ phone: '<script>x</script>' }).where(eq(profiles.id, neighbour.userId));
    const response = await get(neighbour.cookie, '/api/patient/my-data/export.html');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(response.body).toContain('<h1>Meus dados — Clínica Alfa</h1>');
    expect(response.body).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(response.body).toContain('<th>Nome completo</th>');
    // Every field of the JSON has its pt-BR column title in the printable copy.
    const data = (await get(holder.cookie, '/api/patient/my-data/export.json')).json<MyDataExport>();
    const rows = [data.account, data.profile ?? {}, ...data.subscriptions, ...data.charges, ...data.cards, ...data.dependents, ...data.visits, ...data.cardValidations, ...data.termsAcceptances, ...data.auditEntries];
    const fields = new Set(rows.flatMap((row) => Object.keys(row)));
    expect([...fields].filter((field) => !(field in messages.myDataExport.fields))).toEqual([]);
    expect(response.body).not.toContain('<script>');
    expect(response.body).not.toContain('Carteirinha');
  });

  it('is refused to clinic staff', async () => {
    expect((await get(staff.cookie, '/api/patient/my-data/export.json')).statusCode).toBe(403);
  });
});

describe('Quem consultou meu cartão', () => {
  it("lists only the validations of the patient's and their dependents' cards, newest first, with name and role", async () => {
    const page = (await get(holder.cookie, '/api/patient/my-data/card-access?pageSize=2')).json<CardAccessPage>();
    expect(page.total).toBe(3);
    expect(page.items).toHaveLength(2);
    const [newest, second] = page.items;
    expect(newest).toMatchObject({ dependentName: null, userRole: 'clinic_staff', method: 'number', result: 'valid' });
    expect(second).toMatchObject({ dependentName: 'Dependente 1', userRole: 'clinic_admin' });
    expect(JSON.stringify(page)).not.toContain('@');
    const last = (await get(holder.cookie, '/api/patient/my-data/card-access?pageSize=2&page=2')).json<CardAccessPage>();
    expect(last.items).toHaveLength(1);
    expect(new Date(last.items[0]?.at ?? 0).getTime()).toBeLessThan(new Date(second?.at ?? 0).getTime());
  });

  it("shows another patient only their own card's lookups", async () => {
    const page = (await get(neighbour.cookie, '/api/patient/my-data/card-access')).json<CardAccessPage>();
    expect(page.total).toBe(1);
    expect(page.items[0]?.cardNumber).toBe(neighbour.cards[0]?.number);
  });

  it('refuses a page size out of range', async () => {
    expect((await get(holder.cookie, '/api/patient/my-data/card-access?pageSize=1000')).statusCode).toBe(400);
  });
});

describe('Solicitar exclusão', () => {
  it('refuses without the typed confirmation and changes nothing', async () => {
    const response = await deleteAccount(holder.cookie, 'sim');
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toContain('EXCLUIR');
    const [user] = await t.db.select({ deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, holder.userId));
    expect(user?.deactivatedAt).toBeNull();
  });

  it('anonymises the account, keeps charges and validations, ends sessions and cancels through the lifecycle', async () => {
    await t.db.update(subscriptions).set({ providerSubscriptionId: 'sub_local_lgpd', provider: 'local', createdAt: new Date(Date.now() - 30 * DAY_MS) }).where(eq(subscriptions.id, holder.subscriptionId));
    const openCharge = await addCharge(holder, clinicA, 'pending', 14990);
    const [ownCard] = holder.cards;
    if (!ownCard) throw new Error('no card');
    await t.db.insert(visits).values({ clinicId: clinicA, cardId: ownCard.id, subscriptionId: holder.subscriptionId, patientUserId: holder.userId, serviceName: 'Consulta', category: 'consulta', originalCents: 20000, discountPercent: 30, discountCents: 6000, finalCents: 14000, status: 'concluido', performedAt: new Date() });
    const [{ email: oldEmail } = { email: '' }] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, holder.userId));

    const response = await deleteAccount(holder.cookie, 'EXCLUIR');
    expect(response.statusCode, response.body).toBe(200);
    const outcome = response.json<AccountDeletionResponse>();
    expect(outcome).toMatchObject({ keptCharges: 2, keptValidations: 3 });
    expect(outcome.cancellation?.protocol).toMatch(/^CAN-/);
    expect(String(response.headers['set-cookie'])).toContain('carteirinha.session_token=; Path=/; Max-Age=0');

    const [user] = await t.db.select().from(users).where(eq(users.id, holder.userId));
    expect(user?.name).toBe('Conta excluída');
    expect(isTombstoneAddress(user?.email ?? '')).toBe(true);
    expect(user?.deactivatedAt).not.toBeNull();
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, holder.userId));
    expect(profile).toMatchObject({ fullName: 'Conta excluída', cpf: null, phone: null, birthDate: null, avatarUrl: null });
    const [dependent] = await t.db.select().from(dependents).where(eq(dependents.holderUserId, holder.userId));
    expect(dependent).toMatchObject({ fullName: 'Dependente excluído', cpf: null });
    expect(await t.db.select().from(cpfClaims).where(eq(cpfClaims.userId, holder.userId))).toEqual([]);
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, holder.userId))).toEqual([]);
    expect((await t.db.select().from(cards).where(eq(cards.holderUserId, holder.userId))).every((card) => card.revokedAt !== null)).toBe(true);

    // The law's records stay: the charges (the open one no longer payable), the validations and the visit.
    const charges = await t.db.select().from(payments).where(eq(payments.subscriptionId, holder.subscriptionId));
    expect(charges.map((charge) => charge.status).sort()).toEqual(['canceled', 'received']);
    expect(charges.find((charge) => charge.id === openCharge)?.status).toBe('canceled');
    expect(await t.db.select().from(cardValidations).where(eq(cardValidations.cardId, ownCard.id))).toHaveLength(2);
    expect(await t.db.select().from(visits).where(eq(visits.patientUserId, holder.userId))).toHaveLength(1);

    // Cancelled by the lifecycle: its audit entry, and the provider's subscription stopped by its follow-up.
    const [subscription] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, holder.subscriptionId));
    expect(subscription?.status).toBe('canceled');
    const [canceled] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'subscription.canceled'), eq(auditLog.entityId, holder.subscriptionId)));
    expect(canceled?.details).toMatchObject({ source: 'account_deletion' });
    const providerWork = await t.db.select().from(jobs).where(and(eq(jobs.queue, PROVIDER_WORK_QUEUE), sql`${jobs.payload}->>'subscriptionId' = ${holder.subscriptionId}`));
    expect(providerWork.map((job) => job.payload.kind)).toContain('cancelSubscription');
    const [deleted] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'account.deleted'), eq(auditLog.entityId, holder.userId)));
    expect(deleted?.details).toMatchObject({ keptCharges: 2, keptValidations: 3 });

    // The desk's lookup of the printed number now finds no card.
    const lookup = await t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie: staff.cookie, origin: PUBLIC_URL }, payload: { cardToken: ownCard.number, source: 'manual' } });
    expect(lookup.json<{ valid: boolean; outcome: string }>()).toMatchObject({ valid: false, outcome: 'not_found' });

    // Signed out, the old address no longer signs in, and it is free for a new account.
    expect((await get(holder.cookie, '/api/patient/profile')).statusCode).toBe(401);
    expect((await signIn(t.app, oldEmail)).statusCode).not.toBe(200);
    const again = await signUp(t.app, { email: oldEmail });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ user: { id: string } }>().user.id).not.toBe(holder.userId);
  });

  it("leaves the other patients' data alone", async () => {
    const [other] = await t.db.select({ name: users.name, deactivatedAt: users.deactivatedAt }).from(users).where(eq(users.id, neighbour.userId));
    expect(other).toMatchObject({ deactivatedAt: null });
    expect((await get(neighbour.cookie, '/api/patient/my-data/export.json')).statusCode).toBe(200);
  });
});
