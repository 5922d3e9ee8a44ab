/**
 * Issue 25, Serviços and the public price table: create, edit, archive (a service visits used) or delete, the card
 * price per plan (a per-service discount wins, and the visit uses it), and every price change kept with its date so
 * anyone can see on the clinic's site what the card price was on a given day.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { PriceHistoryEntry, PriceTable, Service } from '@carteirinha/shared/contracts/services';
import type { Visit } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import { clinics } from '../../db/schema.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, type Programme } from '../../../test/checkout-kit.ts';

let clock = new Date('2026-10-01T13:00:00Z');
let t: TestApp;
let programme: Programme;
let owner: string;
let staff: string;
let otherOwner: string;
let clinicHost: string;

const as = (cookie: string) => (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });
const onSite = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: clinicHost } });

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  programme = await createProgramme(t, 'Clínica dos Preços');
  owner = (await createSignedInUser(t, 'clinic_admin', programme.clinicId)).cookie;
  staff = (await createSignedInUser(t, 'clinic_staff', programme.clinicId)).cookie;
  otherOwner = (await createSignedInUser(t, 'clinic_admin', (await createProgramme(t, 'Outra Clínica')).clinicId)).cookie;
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, programme.clinicId));
  clinicHost = `${clinic!.slug}.localhost:3999`;
});
afterAll(async () => t.close());

async function create(body: Record<string, unknown>): Promise<Service> {
  const response = await as(owner)('POST', '/api/clinic/services', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Service>();
}

describe('Serviços', () => {
  it('gives each service its card price per plan on sale: the plan’s category discount, or the service’s own', async () => {
    const consulta = await create({ name: 'Consulta Clínica Geral', category: 'consulta', priceCents: 15_000 });
    expect(consulta.cardPrices).toEqual([{ planId: programme.planId, planName: 'Plano Clínica dos Preços', discountPercent: 30, cardPriceCents: 10_500 }]);
    const own = await create({ name: 'Ultrassom', category: 'exame', priceCents: 20_000, discountPercent: 50 });
    expect(own.cardPrices[0]).toMatchObject({ discountPercent: 50, cardPriceCents: 10_000 });
    const list = (await as(staff)('GET', '/api/clinic/services')).json<{ items: Service[] }>().items;
    expect(list.map((service) => service.name)).toEqual(expect.arrayContaining(['Consulta Clínica Geral', 'Ultrassom']));
  });

  it('refuses bad input in pt-BR and leaves the list as it was; the receptionist cannot write', async () => {
    const before = (await as(owner)('GET', '/api/clinic/services')).json<{ items: Service[] }>().items.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', category: 'consulta', priceCents: 100 }, messages.services.nameRequired],
      [{ name: 'Raio X', category: 'cirurgia', priceCents: 100 }, messages.services.categoryRequired],
      [{ name: 'Raio X', category: 'exame', priceCents: -1 }, messages.services.priceInvalid],
      [{ name: 'Raio X', category: 'exame', priceCents: 100, discountPercent: 120 }, messages.services.discountInvalid],
    ];
    for (const [body, message] of cases) {
      const response = await as(owner)('POST', '/api/clinic/services', body);
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(message);
    }
    expect((await as(staff)('POST', '/api/clinic/services', { name: 'Raio X', category: 'exame', priceCents: 100 })).statusCode).toBe(403);
    expect((await as(owner)('GET', '/api/clinic/services')).json<{ items: Service[] }>().items.length).toBe(before);
  });

  it('keeps every price change with its date, and the public table shows the price of any past day', async () => {
    clock = new Date('2026-10-05T13:00:00Z');
    const exam = await create({ name: 'Hemograma Completo', category: 'exame', priceCents: 4_000 });
    clock = new Date('2026-10-20T13:00:00Z');
    const edited = await as(owner)('PUT', `/api/clinic/services/${exam.id}`, { name: 'Hemograma Completo', category: 'exame', priceCents: 6_000, discountPercent: null });
    expect(edited.statusCode, edited.body).toBe(200);

    const history = (await as(owner)('GET', `/api/clinic/services/${exam.id}/price-history`)).json<{ items: PriceHistoryEntry[] }>().items;
    const full = history.filter((entry) => entry.planId === null).sort((a, b) => a.validFrom.localeCompare(b.validFrom));
    expect(full.map((entry) => [entry.fullPriceCents, entry.validFrom, entry.validTo])).toEqual([
      [4_000, '2026-10-05T13:00:00.000Z', '2026-10-20T13:00:00.000Z'],
      [6_000, '2026-10-20T13:00:00.000Z', null],
    ]);
    const card = history.filter((entry) => entry.planId === programme.planId).map((entry) => entry.cardPriceCents);
    expect(card.sort()).toEqual([3_000, 4_500]);

    const today = await onSite('/api/public/price-table');
    expect(today.statusCode, today.body).toBe(200);
    const todayRow = today.json<PriceTable>().items.find((item) => item.serviceId === exam.id);
    expect(todayRow).toMatchObject({ fullPriceCents: 6_000, cardPrices: [{ planId: programme.planId, discountPercent: 25, cardPriceCents: 4_500 }] });
    const past = (await onSite('/api/public/price-table?date=2026-10-10')).json<PriceTable>();
    expect(past.date).toBe('2026-10-10');
    expect(past.items.find((item) => item.serviceId === exam.id)).toMatchObject({ fullPriceCents: 4_000, cardPrices: [{ cardPriceCents: 3_000 }] });
    // Before the service existed, it is not on the table.
    expect((await onSite('/api/public/price-table?date=2026-10-02')).json<PriceTable>().items.some((item) => item.serviceId === exam.id)).toBe(false);
    // Only on a clinic's own site.
    expect((await t.app.inject({ method: 'GET', url: '/api/public/price-table' })).statusCode).toBe(404);
  });

  it('deletes a service nobody used, archives one a visit used (restorable), and the visit uses the service’s own discount', async () => {
    clock = new Date('2026-11-02T13:00:00Z');
    const unused = await create({ name: 'Eletrocardiograma', category: 'exame', priceCents: 9_000 });
    expect((await as(owner)('DELETE', `/api/clinic/services/${unused.id}`)).json()).toEqual({ outcome: 'deleted' });

    const used = await create({ name: 'Limpeza de Pele', category: 'procedimento', priceCents: 12_000, discountPercent: 40 });
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const created = await call('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
    expect((await call('POST', `/api/patient/payments/${created.json().payment.id}/simulate`)).statusCode).toBe(200);
    await settleWork(t);
    const [card] = (await call('GET', '/api/patient/cards')).json<{ items: PatientCard[] }>().items;
    const visit = await as(staff)('POST', '/api/clinic/visits', { cardId: card!.id, serviceId: used.id });
    expect(visit.statusCode, visit.body).toBe(201);
    // The service's 40 %, not the plan's 20 % for procedures.
    expect(visit.json<Visit>()).toMatchObject({ discountPercent: 40, discountCents: 4_800, finalCents: 7_200 });

    expect((await as(owner)('DELETE', `/api/clinic/services/${used.id}`)).json()).toEqual({ outcome: 'archived' });
    const archived = (await as(owner)('GET', '/api/clinic/services')).json<{ items: Service[] }>().items.find((service) => service.id === used.id);
    expect(archived?.isActive).toBe(false);
    // An archived service is off the public table and cannot be picked for a visit.
    expect((await onSite('/api/public/price-table')).json<PriceTable>().items.some((item) => item.serviceId === used.id)).toBe(false);
    expect((await as(staff)('POST', '/api/clinic/visits', { cardId: card!.id, serviceId: used.id })).statusCode).toBeGreaterThanOrEqual(400);
    const restored = await as(owner)('POST', `/api/clinic/services/${used.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<Service>().isActive).toBe(true);
  });

  it('never lets another clinic read or change a service', async () => {
    const mine = await create({ name: 'Consulta Pediátrica', category: 'consulta', priceCents: 18_000 });
    const body = { name: 'Invadido', category: 'consulta', priceCents: 1 };
    expect((await as(otherOwner)('PUT', `/api/clinic/services/${mine.id}`, body)).statusCode).toBe(404);
    expect((await as(otherOwner)('DELETE', `/api/clinic/services/${mine.id}`)).statusCode).toBe(404);
    expect((await as(otherOwner)('GET', `/api/clinic/services/${mine.id}/price-history`)).statusCode).toBe(404);
    const others = (await as(otherOwner)('GET', '/api/clinic/services')).json<{ items: Service[] }>().items;
    expect(others.some((service) => service.id === mine.id)).toBe(false);
  });
});

