/**
 * Issue 25: the clinic's Dashboard figures, each checked against rows the test knows — KPIs of today, the charts of
 * the last 12 weeks, and the first steps that tick themselves — on the clinic's own rows only.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { ClinicCharts, ClinicDashboard, FirstSteps } from '@carteirinha/shared/contracts/dashboard';
import type { Visit } from '@carteirinha/shared/contracts/visits';
import { clinics, dependents, userRoles, visits } from '../../db/schema.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { createPatient, createProgramme, subscribeAndPay, type Patient, type Programme } from '../../../test/checkout-kit.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
// A Tuesday, 10:00 in São Paulo: the week began on Monday 23/11.
const NOW = new Date('2026-11-24T13:00:00Z');
let t: TestApp;
let clinicA: Programme;
let clinicB: Programme;
let adminCookie: string;
let staffA: string;
let staffB: string;

const as = (cookie: string) => (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

async function recordVisit(cookie: string, body: Record<string, unknown>): Promise<Visit> {
  const response = await as(cookie)('POST', '/api/clinic/visits', { serviceName: 'Consulta', category: 'consulta', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Visit>();
}

/** When a patient signed up at the clinic: fixed, so the 30-day window reads known rows whatever the machine's clock. */
async function signedUpAt(userId: string, at: Date): Promise<void> {
  await t.db.update(userRoles).set({ createdAt: at }).where(eq(userRoles.userId, userId));
}

let cardA: PatientCard;
let holder: Patient;

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' }, { now: () => NOW });
  clinicA = await createProgramme(t, 'Clínica dos Indicadores');
  clinicB = await createProgramme(t, 'Clínica Vizinha');
  adminCookie = (await createSignedInUser(t, 'clinic_admin', clinicA.clinicId)).cookie;
  staffA = (await createSignedInUser(t, 'clinic_staff', clinicA.clinicId)).cookie;
  staffB = (await createSignedInUser(t, 'clinic_staff', clinicB.clinicId)).cookie;

  // Clinic A: one holder with an active subscription (and one covered dependent, one removed), one sign-up who did
  // not subscribe, one sign-up of long ago.
  holder = await createPatient(t, clinicA);
  cardA = await subscribeAndPay(t, clinicA, holder);
  await signedUpAt(holder.userId, new Date(NOW.getTime() - 3 * DAY_MS));
  const browsing = await createPatient(t, clinicA);
  await signedUpAt(browsing.userId, new Date(NOW.getTime() - 10 * DAY_MS));
  const longAgo = await createPatient(t, clinicA);
  await signedUpAt(longAgo.userId, new Date(NOW.getTime() - 40 * DAY_MS));
  await t.db.insert(dependents).values([
    { clinicId: clinicA.clinicId, holderUserId: holder.userId, fullName: 'Filha Coberta' },
    { clinicId: clinicA.clinicId, holderUserId: holder.userId, fullName: 'Filho Removido', removedAt: new Date(NOW.getTime() - DAY_MS) },
  ]);

  // Today at clinic A: a concluded consulta (R$ 100,00 less the plan's 30 %), one booked for this afternoon, one
  // cancelled; and one from yesterday (moved back by hand: a visit is recorded at the clock's instant).
  await recordVisit(staffA, { cardId: cardA.id, priceCents: 10_000 });
  await recordVisit(staffA, { cardId: cardA.id, priceCents: 20_000, scheduledFor: '2026-11-24T15:00:00-03:00', professional: 'Dra. Ana' });
  const cancelled = await recordVisit(staffA, { cardId: cardA.id, priceCents: 5_000 });
  expect((await as(staffA)('PATCH', `/api/clinic/visits/${cancelled.id}/status`, { status: 'cancelado', reason: 'Registrado por engano' })).statusCode).toBe(200);
  const yesterday = await recordVisit(staffA, { cardId: cardA.id, priceCents: 8_000 });
  await t.db.update(visits).set({ performedAt: new Date(NOW.getTime() - DAY_MS) }).where(eq(visits.id, yesterday.id));
  // A successful validation today, by the typed number.
  const validation = await as(staffA)('POST', '/api/clinic/card-validations', { cardToken: cardA.number, source: 'manual' });
  expect(validation.json().valid).toBe(true);

  // Clinic B has a visit today too: none of it may reach clinic A's figures.
  const patientB = await createPatient(t, clinicB);
  const cardB = await subscribeAndPay(t, clinicB, patientB);
  await recordVisit(staffB, { cardId: cardB.id, priceCents: 50_000 });
});
afterAll(async () => t.close());

describe('the clinic Dashboard', () => {
  it('computes the four KPIs from the clinic’s own rows', async () => {
    const response = await as(adminCookie)('GET', '/api/clinic/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    const { kpis, recentVisits } = response.json<ClinicDashboard>();
    expect(kpis).toEqual({
      // The concluded one and the booking of this afternoon; not the cancelled one, not yesterday's.
      appointmentsToday: 2,
      // The holder and the dependent still covered.
      activePatients: 2,
      // Only the concluded visit: R$ 100,00 − 30 %.
      revenueTodayCents: 7_000,
      // Two sign-ups in the last 30 days, one of them subscribed.
      conversion: { signUps: 2, converted: 1, ratePercent: 50 },
    });
    expect(recentVisits.length).toBe(4);
    expect(recentVisits.every((visit) => visit.patientName.length > 0 && visit.cardNumber === cardA.number)).toBe(true);
  });

  it('draws 12 weeks of days and weeks, zeros included, with today’s visits, validations and revenue', async () => {
    const response = await as(adminCookie)('GET', '/api/clinic/dashboard/charts');
    expect(response.statusCode, response.body).toBe(200);
    const { days, weeks } = response.json<ClinicCharts>();
    // From Monday 07/09 (eleven weeks before this one) to today.
    expect(days[0]?.day).toBe('2026-09-07');
    expect(days.at(-1)).toEqual({ day: '2026-11-24', visits: 2, validations: 1 });
    expect(days.find((day) => day.day === '2026-11-23')).toEqual({ day: '2026-11-23', visits: 1, validations: 0 });
    expect(days.length).toBe(79);
    expect(weeks.length).toBe(12);
    expect(weeks.map((week) => week.weekStart).slice(-2)).toEqual(['2026-11-16', '2026-11-23']);
    // This week: yesterday's R$ 80,00 − 30 % and today's R$ 70,00; the charge paid today (R$ 99,90).
    expect(weeks.at(-1)).toEqual({ weekStart: '2026-11-23', visitRevenueCents: 5_600 + 7_000, subscriptionRevenueCents: 9_990 });
    expect(weeks.slice(0, -1).every((week) => week.visitRevenueCents === 0 && week.subscriptionRevenueCents === 0)).toBe(true);
  });

  it('is the clinic admin’s: the receptionist is refused the money figures', async () => {
    expect((await as(staffA)('GET', '/api/clinic/dashboard')).statusCode).toBe(403);
    expect((await as(staffA)('GET', '/api/clinic/dashboard/charts')).statusCode).toBe(403);
    expect((await as(staffA)('GET', '/api/clinic/first-steps')).statusCode).toBe(403);
  });
});

describe('the first steps of a clinic', () => {
  it('tick themselves as the clinic does each thing', async () => {
    const fresh = await createProgramme(t, 'Clínica Recém-Chegada');
    const owner = (await createSignedInUser(t, 'clinic_admin', fresh.clinicId)).cookie;
    const stepsOf = async () => {
      const response = await as(owner)('GET', '/api/clinic/first-steps');
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json<FirstSteps>();
      return { ...body, done: Object.fromEntries(body.steps.map((step) => [step.key, step.done])) };
    };
    const before = await stepsOf();
    expect(before.clinicName).toBe('Clínica Recém-Chegada');
    expect(before.siteUrl).toMatch(/^http:\/\/clinica-[^.]+\./);
    expect(before.awaitingApproval).toBe(false);
    expect(before.steps.map((step) => step.key)).toEqual(['reviewPlan', 'reviewTerms', 'connectPayments', 'branding', 'firstService', 'firstTeamMember', 'firstValidation']);
    // The test clinic's plan was inserted on sale; its terms are the starter version 1 nobody saved.
    expect(before.done).toEqual({ reviewPlan: true, reviewTerms: false, connectPayments: false, branding: false, firstService: false, firstTeamMember: false, firstValidation: false });

    const service = await as(owner)('POST', '/api/clinic/services', { name: 'Hemograma', category: 'exame', priceCents: 4_500 });
    expect(service.statusCode, service.body).toBe(201);
    await createSignedInUser(t, 'clinic_staff', fresh.clinicId);
    await t.db.update(clinics).set({ primaryColor: '#0d9488' }).where(eq(clinics.id, fresh.clinicId));
    const after = await stepsOf();
    expect(after.done).toMatchObject({ firstService: true, firstTeamMember: true, branding: true, firstValidation: false });
  });
});
