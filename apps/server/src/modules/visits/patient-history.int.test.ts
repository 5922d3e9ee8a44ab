import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientHistoryPage, PatientHome, PatientSavings } from '@carteirinha/shared/contracts/patient-visits';
import type { VisitStatus } from '@carteirinha/shared/contracts/visits';
import type { ServiceCategory } from '@carteirinha/shared/contracts/services';
import type { PaymentStatus } from '@carteirinha/shared/contracts/payments';
import { messages } from '@carteirinha/shared/messages';
import { dependents, payments, visits } from '../../db/schema.ts';
import { createClinic, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';

/**
 * Histórico and Início on known rows (issue 27): every figure the patient reads, computed by hand below, for a fixed
 * clock. The holder has a dependent; another holder of the same clinic and one of another clinic have visits and
 * charges of their own that must never show.
 */
const NOW = new Date('2026-03-20T15:00:00Z');
let t: TestApp;
let holder: Holder;
let neighbour: Holder;
let stranger: Holder;

type VisitRow = { at: string; status?: VisitStatus; category?: ServiceCategory; name: string; original: number; percent: number; dependent?: boolean; professional?: string };

async function addVisit(who: Holder, clinicId: string, row: VisitRow): Promise<string> {
  const card = row.dependent ? who.cards[1] : who.cards[0];
  if (!card) throw new Error('no card');
  const discount = Math.round((row.original * row.percent) / 100);
  const [inserted] = await t.db
    .insert(visits)
    .values({
      clinicId,
      cardId: card.id,
      subscriptionId: who.subscriptionId,
      patientUserId: who.userId,
      dependentId: card.dependentId,
      serviceName: row.name,
      category: row.category ?? 'consulta',
      originalCents: row.original,
      discountPercent: row.percent,
      discountCents: discount,
      finalCents: row.original - discount,
      status: row.status ?? 'concluido',
      performedAt: new Date(row.at),
      professional: row.professional ?? null,
    })
    .returning({ id: visits.id });
  if (!inserted) throw new Error('visit not inserted');
  return inserted.id;
}

let chargeNumber = 0;
async function addCharge(who: Holder, clinicId: string, charge: { status: PaymentStatus; amount: number; paidAt: string | null; refunded?: number | null }): Promise<void> {
  chargeNumber += 1;
  await t.db.insert(payments).values({
    clinicId,
    subscriptionId: who.subscriptionId,
    provider: 'local',
    providerPaymentId: `historico-${chargeNumber}-${Date.now()}`,
    method: 'pix',
    amountCents: charge.amount,
    dueDate: (charge.paidAt ?? '2026-03-01').slice(0, 10),
    status: charge.status,
    paidAt: charge.paidAt ? new Date(charge.paidAt) : null,
    refundedCents: charge.refunded ?? null,
    refundedAt: charge.status === 'refunded' ? NOW : null,
  });
}

const ids: Record<string, string> = {};
const get = (who: Holder, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });

beforeAll(async () => {
  t = await createTestApp({}, { now: () => NOW });
  const clinicA = (await createClinic(t.db, 'Clínica Histórico A')).clinicId;
  const clinicB = (await createClinic(t.db, 'Clínica Histórico B')).clinicId;
  holder = await createCardHolder(t, clinicA, { maxMembers: 3, dependents: 2 });
  // The second dependent was taken off the plan: no longer covered, so not on Início.
  const removed = holder.cards[2]?.dependentId;
  if (!removed) throw new Error('no second dependent');
  await t.db.update(dependents).set({ removedAt: NOW }).where(eq(dependents.id, removed));
  neighbour = await createCardHolder(t, clinicA);
  stranger = await createCardHolder(t, clinicB);

  ids.v1 = await addVisit(holder, clinicA, { at: '2026-01-10T12:00:00Z', name: 'Consulta clínica geral', original: 20000, percent: 30 });
  // 23:30 of 31 January in São Paulo: a January visit, though February in UTC.
  ids.v2 = await addVisit(holder, clinicA, { at: '2026-02-01T02:30:00Z', category: 'exame', name: 'Hemograma completo', original: 8000, percent: 25 });
  ids.v3 = await addVisit(holder, clinicA, { at: '2026-02-15T14:00:00Z', category: 'procedimento', name: 'Limpeza de pele', original: 15000, percent: 20, dependent: true });
  await addVisit(holder, clinicA, { at: '2026-03-05T14:00:00Z', status: 'cancelado', name: 'Consulta cancelada', original: 20000, percent: 30 });
  ids.v5 = await addVisit(holder, clinicA, { at: '2026-03-10T14:00:00Z', category: 'exame', name: 'Ultrassom abdominal', original: 10000, percent: 10 });
  await addVisit(holder, clinicA, { at: '2026-03-20T14:00:00Z', status: 'em_andamento', name: 'Consulta em andamento', original: 20000, percent: 30 });
  // Booked ahead: one missed yesterday (still aguardando), the next tomorrow, another next week.
  await addVisit(holder, clinicA, { at: '2026-03-19T13:00:00Z', status: 'aguardando', name: 'Consulta perdida', original: 20000, percent: 30 });
  ids.next = await addVisit(holder, clinicA, { at: '2026-03-21T13:00:00Z', status: 'aguardando', name: 'Consulta pediátrica', original: 22000, percent: 30, dependent: true, professional: 'Dra. Helena Costa' });
  await addVisit(holder, clinicA, { at: '2026-03-25T13:00:00Z', status: 'aguardando', name: 'Consulta de retorno', original: 20000, percent: 30 });

  await addCharge(holder, clinicA, { status: 'received', amount: 14990, paidAt: '2026-01-05T13:00:00Z' });
  await addCharge(holder, clinicA, { status: 'confirmed', amount: 14990, paidAt: '2026-02-05T13:00:00Z' });
  // Paid, then 49,90 given back (a withdrawal keeps the discounts used); and one given back whole.
  await addCharge(holder, clinicA, { status: 'refunded', amount: 14990, paidAt: '2026-03-05T13:00:00Z', refunded: 4990 });
  await addCharge(holder, clinicA, { status: 'refunded', amount: 14990, paidAt: '2026-03-06T13:00:00Z', refunded: null });
  await addCharge(holder, clinicA, { status: 'pending', amount: 14990, paidAt: null });
  await addCharge(holder, clinicA, { status: 'overdue', amount: 14990, paidAt: null });

  await addVisit(neighbour, clinicA, { at: '2026-02-10T14:00:00Z', name: 'Consulta do vizinho', original: 50000, percent: 30 });
  await addCharge(neighbour, clinicA, { status: 'received', amount: 9990, paidAt: '2026-02-10T13:00:00Z' });
  await addVisit(stranger, clinicB, { at: '2026-02-10T14:00:00Z', name: 'Consulta de outra clínica', original: 70000, percent: 30 });
  await addCharge(stranger, clinicB, { status: 'received', amount: 19990, paidAt: '2026-02-10T13:00:00Z' });
});
afterAll(() => t.close());

describe('GET /api/patient/history/summary', () => {
  it('adds up every concluded visit and every charge paid, month by month in São Paulo time', async () => {
    const response = await get(holder, '/api/patient/history/summary');
    expect(response.statusCode, response.body).toBe(200);
    // Saved 60,00 + 20,00 + 30,00 + 10,00 of full prices 200,00 + 80,00 + 150,00 + 100,00: 22.6 % → 23 %.
    // Paid 149,90 + 149,90 + (149,90 − 49,90) + (149,90 − 149,90).
    expect(response.json<PatientSavings>()).toEqual({
      savedCents: 12000,
      visits: 4,
      originalCents: 53000,
      averageSavingPercent: 23,
      paidForPlanCents: 39980,
      months: [
        { month: '2026-01', savedCents: 8000, paidForPlanCents: 14990 },
        { month: '2026-02', savedCents: 3000, paidForPlanCents: 14990 },
        { month: '2026-03', savedCents: 1000, paidForPlanCents: 10000 },
      ],
    });
  });

  it("narrows to the period's São Paulo days, both included", async () => {
    // 1–28 February: the visit of 23:30 on 31 January is not in it, the dependent's of the 15th is.
    const february = (await get(holder, '/api/patient/history/summary?from=2026-02-01&to=2026-02-28')).json<PatientSavings>();
    expect(february).toEqual({
      savedCents: 3000,
      visits: 1,
      originalCents: 15000,
      averageSavingPercent: 20,
      paidForPlanCents: 14990,
      months: [{ month: '2026-02', savedCents: 3000, paidForPlanCents: 14990 }],
    });
    const january = (await get(holder, '/api/patient/history/summary?from=2026-01-01&to=2026-01-31')).json<PatientSavings>();
    expect(january).toMatchObject({ savedCents: 8000, visits: 2, originalCents: 28000, averageSavingPercent: 29, paidForPlanCents: 14990 });
    // Only a start: from 1 March on.
    const march = (await get(holder, '/api/patient/history/summary?from=2026-03-01')).json<PatientSavings>();
    expect(march).toMatchObject({ savedCents: 1000, visits: 1, paidForPlanCents: 10000 });
  });

  it('answers zeros and no months for a period without anything', async () => {
    const response = await get(holder, '/api/patient/history/summary?from=2025-01-01&to=2025-12-31');
    expect(response.json<PatientSavings>()).toEqual({ savedCents: 0, visits: 0, originalCents: 0, averageSavingPercent: 0, paidForPlanCents: 0, months: [] });
  });

  it('refuses a period that ends before it starts, or a day that is not one', async () => {
    const reversed = await get(holder, '/api/patient/history/summary?from=2026-03-01&to=2026-02-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.body).toContain(messages.visitsScreen.periodInvalid);
    expect((await get(holder, '/api/patient/history/summary?from=2026-02-30')).statusCode).toBe(400);
    expect((await get(holder, '/api/patient/history?to=ontem')).statusCode).toBe(400);
  });
});

describe('GET /api/patient/history', () => {
  it('pages the concluded visits newest first, with the place, the dependent and every amount', async () => {
    const first = (await get(holder, '/api/patient/history?pageSize=2&page=1')).json<PatientHistoryPage>();
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 2 });
    expect(first.items.map((item) => item.id)).toEqual([ids.v5, ids.v3]);
    expect(first.items[1]).toEqual({
      id: ids.v3,
      performedAt: '2026-02-15T14:00:00.000Z',
      placeName: 'Clínica Histórico A',
      serviceName: 'Limpeza de pele',
      category: 'procedimento',
      dependentName: 'Dependente 1',
      originalCents: 15000,
      discountPercent: 20,
      discountCents: 3000,
      finalCents: 12000,
    });
    const second = (await get(holder, '/api/patient/history?pageSize=2&page=2')).json<PatientHistoryPage>();
    expect(second.items.map((item) => item.id)).toEqual([ids.v2, ids.v1]);
    expect(second.items[1]).toMatchObject({ dependentName: null, originalCents: 20000, discountCents: 6000, finalCents: 14000 });
    expect((await get(holder, '/api/patient/history?pageSize=2&page=3')).json<PatientHistoryPage>()).toMatchObject({ items: [], total: 4 });
  });

  it('filters by the period on the server', async () => {
    const january = (await get(holder, '/api/patient/history?from=2026-01-01&to=2026-01-31')).json<PatientHistoryPage>();
    expect(january.items.map((item) => item.id)).toEqual([ids.v2, ids.v1]);
    expect(january.total).toBe(2);
  });

  it("never shows another patient's visits, of the same clinic or another", async () => {
    const mine = (await get(neighbour, '/api/patient/history')).json<PatientHistoryPage>();
    expect(mine.items.map((item) => item.serviceName)).toEqual(['Consulta do vizinho']);
    expect((await get(neighbour, '/api/patient/history/summary')).json<PatientSavings>()).toMatchObject({ savedCents: 15000, visits: 1, paidForPlanCents: 9990 });
    const theirs = (await get(stranger, '/api/patient/history')).json<PatientHistoryPage>();
    expect(theirs.items.map((item) => item.serviceName)).toEqual(['Consulta de outra clínica']);
    expect(theirs.items[0]?.placeName).toBe('Clínica Histórico B');
    expect((await get(stranger, '/api/patient/history/summary')).json<PatientSavings>()).toMatchObject({ savedCents: 21000, visits: 1, paidForPlanCents: 19990 });
  });
});

describe('GET /api/patient/home', () => {
  it('gives the next visit booked ahead, the covered dependents and the latest three visits', async () => {
    const response = await get(holder, '/api/patient/home');
    expect(response.statusCode, response.body).toBe(200);
    const home = response.json<PatientHome>();
    // Yesterday's missed booking is not "next"; tomorrow's, for the dependent, is.
    expect(home.nextAppointment).toEqual({
      id: ids.next,
      performedAt: '2026-03-21T13:00:00.000Z',
      placeName: 'Clínica Histórico A',
      serviceName: 'Consulta pediátrica',
      professional: 'Dra. Helena Costa',
      dependentName: 'Dependente 1',
    });
    expect(home.dependents.map((dependent) => dependent.fullName)).toEqual(['Dependente 1']);
    expect(home.latestVisits.map((visit) => visit.id)).toEqual([ids.v5, ids.v3, ids.v2]);
  });

  it('is empty for a patient with nothing booked, no dependent and no visit yet; never shows another clinic', async () => {
    const fresh = await createCardHolder(t, (await createClinic(t.db, 'Clínica Nova')).clinicId);
    expect((await get(fresh, '/api/patient/home')).json<PatientHome>()).toEqual({ nextAppointment: null, dependents: [], latestVisits: [], networkPlaces: 0 });
    const theirs = (await get(stranger, '/api/patient/home')).json<PatientHome>();
    expect(theirs.latestVisits.map((visit) => visit.serviceName)).toEqual(['Consulta de outra clínica']);
    expect(theirs.nextAppointment).toBeNull();
  });
});
