import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import type { Service } from '@carteirinha/shared/contracts/services';
import type { Visit } from '@carteirinha/shared/contracts/visits';
import { auditLog, visits } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';
import { visitAmountsOf } from './service.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
let t: TestApp;
let clinicA: string;
let clinicB: string;
let staffA: { userId: string; cookie: string };
let adminA: { userId: string; cookie: string };
let staffB: { userId: string; cookie: string };
let holder: Holder;
let services: Record<'consulta' | 'exame' | 'procedimento', Service>;

const post = (cookie: string, url: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url, headers: { cookie, origin: PUBLIC_URL }, payload });
const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

async function createService(cookie: string, name: string, category: string, priceCents: number): Promise<Service> {
  const response = await post(cookie, '/api/clinic/services', { name, category, priceCents });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Service>();
}

beforeAll(async () => {
  t = await createTestApp();
  clinicA = (await createClinic(t.db, 'Clínica Atendimentos A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Atendimentos B')).clinicId;
  staffA = await createSignedInUser(t, 'clinic_staff', clinicA);
  adminA = await createSignedInUser(t, 'clinic_admin', clinicA);
  staffB = await createSignedInUser(t, 'clinic_staff', clinicB);
  holder = await createCardHolder(t, clinicA, { maxMembers: 2, dependents: 1, discounts: { consultas: 30, exames: 25, procedimentos: 15 } });
  services = {
    consulta: await createService(adminA.cookie, 'Consulta cardiologia', 'consulta', 20000),
    exame: await createService(adminA.cookie, 'Hemograma', 'exame', 8999),
    procedimento: await createService(adminA.cookie, 'Curativo', 'procedimento', 333),
  };
});
afterAll(() => t.close());

describe('services', () => {
  it("lists the clinic's services for staff and admin, not another clinic's", async () => {
    const mine = (await get(staffA.cookie, '/api/clinic/services')).json<{ items: Service[] }>().items;
    expect(mine.map((service) => service.name)).toEqual(['Consulta cardiologia', 'Curativo', 'Hemograma']);
    expect((await get(staffB.cookie, '/api/clinic/services')).json()).toEqual({ items: [] });
  });

  it('only the clinic admin creates one, and it is audited', async () => {
    expect((await post(staffA.cookie, '/api/clinic/services', { name: 'Raio X', category: 'exame', priceCents: 100 })).statusCode).toBe(403);
    expect((await post(adminA.cookie, '/api/clinic/services', { name: 'Raio X', category: 'outro', priceCents: 100 })).statusCode).toBe(400);
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, services.exame.id));
    expect(audit).toMatchObject({ action: 'service.created', entity: 'service', actorUserId: adminA.userId, clinicId: clinicA });
  });
});

describe('POST /api/clinic/visits', () => {
  it('applies the plan discount of the service category, rounded to the cent', async () => {
    const expected = { consulta: [30, 6000, 14000], exame: [25, 2250, 6749], procedimento: [15, 50, 283] } as const;
    for (const category of ['consulta', 'exame', 'procedimento'] as const) {
      const response = await post(staffA.cookie, '/api/clinic/visits', { cardId: holder.cards[0]?.id, serviceId: services[category].id });
      expect(response.statusCode, response.body).toBe(201);
      const [percent, discount, final] = expected[category];
      expect(response.json<Visit>()).toMatchObject({
        serviceName: services[category].name,
        category,
        originalCents: services[category].priceCents,
        discountPercent: percent,
        discountCents: discount,
        finalCents: final,
        status: 'concluido',
        cardNumber: holder.cards[0]?.number,
      });
    }
  });

  it('takes a typed service with its category and price, for a dependent, and records who and the audit row', async () => {
    const response = await post(staffA.cookie, '/api/clinic/visits', { cardId: holder.cards[1]?.id, serviceName: 'Avaliação', category: 'consulta', priceCents: 12345, status: 'aguardando' });
    expect(response.statusCode, response.body).toBe(201);
    const visit = response.json<Visit>();
    expect(visit).toMatchObject({ patientName: 'Dependente 1', discountPercent: 30, discountCents: 3704, finalCents: 8641, status: 'aguardando' });
    const [row] = await t.db.select().from(visits).where(eq(visits.id, visit.id));
    expect(row).toMatchObject({ createdBy: staffA.userId, clinicId: clinicA, serviceId: null, dependentId: holder.cards[1]?.dependentId, patientUserId: holder.userId });
    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, visit.id));
    expect(audit).toMatchObject({ action: 'visit.created', entity: 'visit', actorUserId: staffA.userId, clinicId: clinicA });
  });

  it('needs a service of the list or a typed one complete', async () => {
    const incomplete = await post(staffA.cookie, '/api/clinic/visits', { cardId: holder.cards[0]?.id, serviceName: 'Avaliação' });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json()).toMatchObject({ error: { message: messages.cards.visitServiceRequired } });
    const otherClinicService = await createService((await createSignedInUser(t, 'clinic_admin', clinicB)).cookie, 'Serviço B', 'consulta', 100);
    expect((await post(staffA.cookie, '/api/clinic/visits', { cardId: holder.cards[0]?.id, serviceId: otherClinicService.id })).statusCode).toBe(404);
  });

  it("refuses a card of an inactive subscription (409), and another clinic's card (404)", async () => {
    const overdue = await createCardHolder(t, clinicA, { status: 'overdue', expiresAt: new Date(Date.now() - 20 * DAY_MS) });
    const refused = await post(staffA.cookie, '/api/clinic/visits', { cardId: overdue.cards[0]?.id, serviceId: services.consulta.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: { message: messages.cards.visitCardInactive } });
    expect((await post(staffB.cookie, '/api/clinic/visits', { cardId: holder.cards[0]?.id, serviceName: 'X de B', category: 'exame', priceCents: 100 })).statusCode).toBe(404);
    expect(await t.db.select().from(visits).where(eq(visits.cardId, overdue.cards[0]?.id ?? ''))).toEqual([]);
  });

  it('is refused to a patient', async () => {
    expect((await post(holder.cookie, '/api/clinic/visits', { cardId: holder.cards[0]?.id, serviceId: services.consulta.id })).statusCode).toBe(403);
  });
});

describe('GET /api/clinic/visits', () => {
  it("lists the clinic's visits newest first, paginated; another clinic sees none", async () => {
    const page = (await get(adminA.cookie, '/api/clinic/visits?pageSize=2')).json<{ items: Visit[]; total: number; page: number; pageSize: number }>();
    expect(page.total).toBe(4);
    expect(page.items).toHaveLength(2);
    expect(page.items[0]?.serviceName).toBe('Avaliação');
    const second = (await get(adminA.cookie, '/api/clinic/visits?pageSize=2&page=2')).json<{ items: Visit[] }>();
    expect(second.items.map((visit) => visit.serviceName)).toEqual(['Hemograma', 'Consulta cardiologia']);
    expect((await get(staffB.cookie, '/api/clinic/visits')).json()).toMatchObject({ items: [], total: 0 });
  });

  it("filters by card (Ver Histórico) and searches the patient's name and the service", async () => {
    const byCard = (await get(staffA.cookie, `/api/clinic/visits?cardId=${holder.cards[1]?.id}`)).json<{ items: Visit[]; total: number }>();
    expect(byCard.items.map((visit) => visit.serviceName)).toEqual(['Avaliação']);
    expect((await get(staffA.cookie, '/api/clinic/visits?q=hemogr')).json<{ total: number }>().total).toBe(1);
    expect((await get(staffA.cookie, '/api/clinic/visits?q=dependente')).json<{ total: number }>().total).toBe(1);
    expect((await get(staffB.cookie, `/api/clinic/visits?cardId=${holder.cards[1]?.id}`)).json()).toMatchObject({ items: [], total: 0 });
  });
});

describe('visitAmountsOf', () => {
  it('rounds half up and keeps final = original − discount', () => {
    expect(visitAmountsOf(333, 15)).toEqual({ discountCents: 50, finalCents: 283 });
    expect(visitAmountsOf(0, 30)).toEqual({ discountCents: 0, finalCents: 0 });
    expect(visitAmountsOf(100, 100)).toEqual({ discountCents: 100, finalCents: 0 });
  });
});
