/**
 * No N+1 (issue 24): every list and figure costs the same number of statements whatever the page size or the number
 * of rows it shows. Each request is counted at the driver (DatabaseHandle.onStatement), the fewest of three tries,
 * so a cache refresh (settings, the staff activity stamp) that lands in one try does not count as growth.
 */
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { cardValidations, plans } from '../src/db/schema.ts';
import { createCardHolder, type Holder } from '../src/modules/cards/card-fixtures.ts';
import { seedManyCharges, seedManyClinics, seedManyNetworkPlaces, seedManyUsers, seedManyVisits } from './generators.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, statementsDuring, type TestApp } from './helpers.ts';
import { saoPauloDay } from '../src/lib/sao-paulo-time.ts';
import { buildClinicPayout, payoutMonth, type PayoutMonth } from '../src/modules/payouts/build.ts';

const TRIES = 3;
let t: TestApp;
let admin: string;
let staff: string;
let owner: string;
let clinicId: string;
let busyHolder: Holder;
let newHolder: Holder;
let patient: string;

function get(cookie: string, url: string): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'GET', url, headers: { cookie } });
}

/** The fewest statements one call of `request` made over TRIES calls; the call must answer 2xx each time. */
async function statementsOf(request: () => Promise<LightMyRequestResponse>): Promise<number> {
  let fewest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < TRIES; attempt += 1) {
    let response: LightMyRequestResponse | undefined;
    const statements = await statementsDuring(t, async () => {
      response = await request();
    });
    expect(response?.statusCode, response?.body).toBeLessThan(300);
    fewest = Math.min(fewest, statements.length);
  }
  return fewest;
}

function itemsOf(response: LightMyRequestResponse): unknown[] {
  return response.json<{ items: unknown[] }>().items;
}

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false' });
  admin = (await createSignedInUser(t, 'admin')).cookie;
  clinicId = (await createClinic(t.db, 'Clínica das Listas')).clinicId;
  staff = (await createSignedInUser(t, 'clinic_staff', clinicId)).cookie;
  owner = (await createSignedInUser(t, 'clinic_admin', clinicId)).cookie;
  await seedManyClinics(t.db, 30, 'lista');
  await seedManyUsers(t.db, 30, { prefix: 'lista', clinicId });
  busyHolder = await createCardHolder(t, clinicId, { maxMembers: 4, dependents: 3 });
  newHolder = await createCardHolder(t, clinicId);
  const [card] = busyHolder.cards;
  if (!card) throw new Error('no card');
  await seedManyVisits(t.db, { clinicId, cardId: card.id, subscriptionId: busyHolder.subscriptionId, patientUserId: busyHolder.userId }, 30);
  await seedManyCharges(t.db, { clinicId, subscriptionId: busyHolder.subscriptionId }, 30);
  await seedManyCharges(t.db, { clinicId, subscriptionId: newHolder.subscriptionId }, 1);
  await seedManyNetworkPlaces(t.db, clinicId, 30);
  // Thirty lookups of the busy holder's cards by two of the clinic's people (Meus Dados, 'Quem consultou meu cartão').
  const lookers = [await createSignedInUser(t, 'clinic_staff', clinicId), await createSignedInUser(t, 'clinic_admin', clinicId)];
  await t.db.insert(cardValidations).values(
    Array.from({ length: 30 }, (_, index) => ({ clinicId, userId: lookers[index % 2]?.userId ?? null, cardId: busyHolder.cards[index % busyHolder.cards.length]?.id ?? null, method: 'number' as const, result: 'valid' as const, createdAt: new Date(Date.now() - index * 60_000) })),
  );
  patient = newHolder.cookie;
  // Thirty months of payouts of the lists' clinic (a charge a month), oldest first, as the monthly job makes them.
  for (let back = 29; back >= 0; back -= 1) await buildClinicPayout(t.db, clinicId, monthsAgo(back), new Date());
});

/** The São Paulo month `back` months before this one. */
function monthsAgo(back: number): PayoutMonth {
  const [year = 1970, month = 1] = saoPauloDay(new Date()).split('-').map(Number);
  const index = year * 12 + (month - 1) - back;
  return payoutMonth(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
}
afterAll(() => t.close());

describe('statements per list request do not grow with the page size', () => {
  const pagedLists = [
    { name: 'admin clinics', url: '/api/admin/clinics', as: () => admin },
    { name: 'admin clinics searched', url: '/api/admin/clinics?q=lista', as: () => admin },
    { name: 'admin users', url: '/api/admin/users', as: () => admin },
    { name: 'admin users searched', url: '/api/admin/users?q=pessoa', as: () => admin },
    { name: 'admin payouts (Repasses)', url: '/api/admin/payouts', as: () => admin },
    { name: 'clinic visits', url: '/api/clinic/visits', as: () => staff },
    { name: 'clinic visits searched', url: '/api/clinic/visits?q=servi', as: () => staff },
    { name: 'clinic visits filtered (Filtros)', url: '/api/clinic/visits?status=concluido&from=2000-01-01&to=2100-12-31', as: () => staff },
    { name: 'clinic members (Pacientes)', url: '/api/clinic/members', as: () => owner },
    { name: 'clinic members searched', url: '/api/clinic/members?q=pessoa', as: () => owner },
    { name: 'clinic network (Rede Credenciada)', url: '/api/clinic/network', as: () => owner },
    { name: 'clinic network searched', url: '/api/clinic/network?q=rede', as: () => owner },
    { name: "a patient's network searched, nearest first", url: '/api/patient/network?q=rede&lat=-23.56&lng=-46.65', as: () => patient },
    { name: "a card's visits", url: () => `/api/clinic/visits?cardId=${busyHolder.cards[0]?.id ?? ''}`, as: () => staff },
    { name: "a patient's history (Histórico)", url: '/api/patient/history', as: () => busyHolder.cookie },
    { name: "a patient's history in a period", url: '/api/patient/history?from=2000-01-01&to=2100-12-31', as: () => busyHolder.cookie },
    { name: "who looked up a patient's cards (Meus Dados)", url: '/api/patient/my-data/card-access', as: () => busyHolder.cookie },
  ];

  for (const list of pagedLists) {
    it(list.name, async () => {
      const url = typeof list.url === 'string' ? list.url : list.url();
      const join = url.includes('?') ? '&' : '?';
      const one = `${url}${join}pageSize=1`;
      const many = `${url}${join}pageSize=25`;
      expect(itemsOf(await get(list.as(), one))).toHaveLength(1);
      expect(itemsOf(await get(list.as(), many))).toHaveLength(25);
      expect(await statementsOf(() => get(list.as(), many))).toBe(await statementsOf(() => get(list.as(), one)));
    });
  }
});

describe('statements per request do not grow with the rows shown', () => {
  it("a patient's charges: thirty as one", async () => {
    expect(itemsOf(await get(busyHolder.cookie, '/api/patient/payments'))).toHaveLength(30);
    expect(itemsOf(await get(newHolder.cookie, '/api/patient/payments'))).toHaveLength(1);
    expect(await statementsOf(() => get(busyHolder.cookie, '/api/patient/payments'))).toBe(await statementsOf(() => get(newHolder.cookie, '/api/patient/payments')));
  });

  it("a patient's data export (Meus Dados): thirty visits, charges and lookups as one", async () => {
    const exported = (await get(busyHolder.cookie, '/api/patient/my-data/export.json')).json<{ visits: unknown[]; charges: unknown[]; cardValidations: unknown[] }>();
    expect([exported.visits.length, exported.charges.length, exported.cardValidations.length]).toEqual([30, 30, 30]);
    expect(await statementsOf(() => get(busyHolder.cookie, '/api/patient/my-data/export.json'))).toBe(await statementsOf(() => get(newHolder.cookie, '/api/patient/my-data/export.json')));
  });

  it("a patient's cards: four as one", async () => {
    expect(itemsOf(await get(busyHolder.cookie, '/api/patient/cards'))).toHaveLength(4);
    expect(itemsOf(await get(newHolder.cookie, '/api/patient/cards'))).toHaveLength(1);
    expect(await statementsOf(() => get(busyHolder.cookie, '/api/patient/cards'))).toBe(await statementsOf(() => get(newHolder.cookie, '/api/patient/cards')));
  });

  it("a patient's Início and savings: thirty visits, charges and three dependents as none", async () => {
    for (const url of ['/api/patient/home', '/api/patient/history/summary', '/api/patient/dependents']) {
      expect(await statementsOf(() => get(busyHolder.cookie, url))).toBe(await statementsOf(() => get(newHolder.cookie, url)));
    }
    const busy = (await get(busyHolder.cookie, '/api/patient/history/summary')).json<{ visits: number; months: unknown[] }>();
    expect(busy.visits).toBe(30);
    expect(busy.months.length).toBeGreaterThan(1);
  });

  it('the platform plans, the dashboard and the reports, before and after more plans and clinics', async () => {
    const figures = ['/api/admin/plans', '/api/admin/plans/summary', '/api/admin/dashboard', '/api/admin/clinics/summary', '/api/admin/users/counts', '/api/admin/reports/summary'];
    const before = [];
    for (const url of figures) before.push(await statementsOf(() => get(admin, url)));
    await t.db.insert(plans).values([1, 2, 3].map((n) => ({ name: `Plano da lista ${n}`, priceCents: 1000 * n })));
    await seedManyClinics(t.db, 10, 'mais');
    const after = [];
    for (const url of figures) after.push(await statementsOf(() => get(admin, url)));
    expect(after).toEqual(before);
  });

  it("a member's detail: one with cards, dependents, charges and visits costs what a newcomer's costs", async () => {
    const detail = (userId: string) => get(owner, `/api/clinic/members/${userId}`);
    expect(await statementsOf(() => detail(busyHolder.userId))).toBe(await statementsOf(() => detail(newHolder.userId)));
  });

  it("the clinic's Dashboard, charts, first steps, price list, public price table and team, before and after more rows", async () => {
    // A clinic of its own: the keyset tests below count the visits of the lists' clinic.
    const figuresClinic = (await createClinic(t.db, 'Clínica dos Números')).clinicId;
    const figuresOwner = (await createSignedInUser(t, 'clinic_admin', figuresClinic)).cookie;
    const holder = await createCardHolder(t, figuresClinic);
    const figures = ['/api/clinic/dashboard', '/api/clinic/dashboard/charts', '/api/clinic/first-steps', '/api/clinic/services', '/api/clinic/team', '/api/clinic/settings'];
    const post = (url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: { cookie: figuresOwner, origin: PUBLIC_URL }, payload });
    expect((await post('/api/clinic/services', { name: 'Serviço da lista 0', category: 'exame', priceCents: 1000 })).statusCode).toBe(201);
    const before = [];
    for (const url of figures) before.push(await statementsOf(() => get(figuresOwner, url)));
    for (const n of [1, 2, 3, 4]) expect((await post('/api/clinic/services', { name: `Serviço da lista ${n}`, category: 'exame', priceCents: 1000 * n })).statusCode).toBe(201);
    for (let n = 0; n < 3; n += 1) await createSignedInUser(t, 'clinic_staff', figuresClinic);
    const [card] = holder.cards;
    if (!card) throw new Error('no card');
    await seedManyVisits(t.db, { clinicId: figuresClinic, cardId: card.id, subscriptionId: holder.subscriptionId, patientUserId: holder.userId }, 20);
    const after = [];
    for (const url of figures) after.push(await statementsOf(() => get(figuresOwner, url)));
    expect(after).toEqual(before);
  });

  it("Financeiro: a clinic's payouts and a payout's lines, thirty as one", async () => {
    const owner = (await createSignedInUser(t, 'clinic_admin', clinicId)).cookie;
    const other = await createClinic(t.db, 'Clínica de Um Repasse');
    const otherOwner = (await createSignedInUser(t, 'clinic_admin', other.clinicId)).cookie;
    const otherHolder = await createCardHolder(t, other.clinicId);
    // Thirty charges of one month make one payout of thirty lines; the other clinic's month has one.
    await seedManyCharges(t.db, { clinicId: other.clinicId, subscriptionId: otherHolder.subscriptionId }, 1);
    await buildClinicPayout(t.db, other.clinicId, monthsAgo(0), new Date());
    const busy = itemsOf(await get(owner, '/api/clinic/payouts'));
    const single = itemsOf(await get(otherOwner, '/api/clinic/payouts'));
    expect(busy).toHaveLength(30);
    expect(single).toHaveLength(1);
    expect(await statementsOf(() => get(owner, '/api/clinic/payouts'))).toBe(await statementsOf(() => get(otherOwner, '/api/clinic/payouts')));

    const manyLinesClinic = await createClinic(t.db, 'Clínica de Muitos Lançamentos');
    const manyOwner = (await createSignedInUser(t, 'clinic_admin', manyLinesClinic.clinicId)).cookie;
    const manyHolder = await createCardHolder(t, manyLinesClinic.clinicId);
    await t.db.execute(sql`
      insert into payments (clinic_id, subscription_id, provider, provider_payment_id, method, amount_cents, due_date, status, paid_at)
      select ${manyLinesClinic.clinicId}::uuid, ${manyHolder.subscriptionId}::uuid, 'local', 'linhas-' || gen_random_uuid(), 'pix', 1000, now()::date, 'received', now() - (n || ' seconds')::interval
      from generate_series(1, 30) as n`);
    const manyPayout = await buildClinicPayout(t.db, manyLinesClinic.clinicId, monthsAgo(0), new Date());
    const [onePayout] = single as Array<{ id: string }>;
    const linesOf = (cookie: string, id: string | null | undefined) => get(cookie, `/api/clinic/payouts/${id ?? ''}`);
    expect((await linesOf(manyOwner, manyPayout)).json<{ lines: unknown[] }>().lines).toHaveLength(30);
    expect((await linesOf(otherOwner, onePayout?.id)).json<{ lines: unknown[] }>().lines).toHaveLength(1);
    expect(await statementsOf(() => linesOf(manyOwner, manyPayout))).toBe(await statementsOf(() => linesOf(otherOwner, onePayout?.id)));
  });

  it('a card validation by number or CPF: one lookup whatever the clinic holds', async () => {
    const validate = (value: string) =>
      t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie: staff, origin: PUBLIC_URL }, payload: { cardToken: value, source: 'manual' } });
    const busy = await statementsOf(() => validate(busyHolder.cards[0]?.number ?? ''));
    const fresh = await statementsOf(() => validate(newHolder.cards[0]?.number ?? ''));
    expect(busy).toBe(fresh);
  });
});

describe('keyset pages', () => {
  type Page = { items: { id: string }[]; nextCursor: string | null; total: number };

  it('walks the visits by cursor through the same rows, in the same order, as by page number', async () => {
    const byNumber: string[] = [];
    for (let page = 1; page <= 5; page += 1) byNumber.push(...(await get(staff, `/api/clinic/visits?pageSize=7&page=${page}`)).json<Page>().items.map((item) => item.id));
    const byCursor: string[] = [];
    let after: string | null = null;
    for (let page = 1; page <= 5; page += 1) {
      const answer: Page = (await get(staff, `/api/clinic/visits?pageSize=7&page=${page}${after ? `&after=${after}` : ''}`)).json<Page>();
      byCursor.push(...answer.items.map((item) => item.id));
      after = answer.nextCursor;
      if (page < 5) expect(after).not.toBeNull();
    }
    expect(byCursor).toEqual(byNumber);
    expect(new Set(byCursor).size).toBe(30);
    expect(after).toBeNull();
  });

  it('a page by cursor costs what the first page costs', async () => {
    const first = (await get(admin, '/api/admin/users?pageSize=5')).json<Page>();
    const deeper = `/api/admin/users?pageSize=5&page=2&after=${first.nextCursor ?? ''}`;
    expect(itemsOf(await get(admin, deeper))).toHaveLength(5);
    expect(await statementsOf(() => get(admin, deeper))).toBe(await statementsOf(() => get(admin, '/api/admin/users?pageSize=5')));
  });

  it('refuses a cursor that is not one of ours with 400 and a pt-BR message', async () => {
    for (const after of ['bm90LWEtY3Vyc29y', Buffer.from(JSON.stringify(['ontem', 'x'])).toString('base64url'), 'a%2Fb']) {
      const response = await get(admin, `/api/admin/clinics?after=${after}`);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toBe(messages.validation.invalidRequest);
    }
  });
});
