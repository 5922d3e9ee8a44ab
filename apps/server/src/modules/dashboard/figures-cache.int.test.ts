/**
 * The dashboards' figures cache (issue 28, ADR 036): a process computes a clinic's Dashboard, its charts and the admin
 * Dashboard once, then serves them without reading the database, until a row they count changes — through the app or
 * by hand in SQL — and the triggers' message clears that clinic's figures and the platform's, no other clinic's. The
 * cache keeps figures a minute here, so a change seen on the first view after its message arrived can only be the
 * message's doing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import type { AdminDashboard, ClinicCharts, ClinicDashboard } from '@carteirinha/shared/contracts/dashboard';
import { dependents, users } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, statementsDuring, type TestApp } from '../../../test/helpers.ts';
import { createPatient, createProgramme, subscribeAndPay, type Patient, type Programme } from '../../../test/checkout-kit.ts';

let t: TestApp;
let clinicA: Programme;
let clinicB: Programme;
let ownerA: string;
let ownerB: string;
let staffA: string;
let staffB: string;
let platformAdmin: string;
let cardA: PatientCard;
let cardB: PatientCard;
let holderA: Patient;

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

async function recordVisit(staffCookie: string, cardId: string): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/clinic/visits',
    headers: { cookie: staffCookie, origin: PUBLIC_URL },
    payload: { cardId, serviceName: 'Consulta', category: 'consulta', priceCents: 10_000 },
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function read<T>(cookie: string, url: string): Promise<T> {
  const response = await get(cookie, url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
}

/** The tables the figures are counted from: a statement naming one is the figures being computed. */
const FIGURE_TABLES = /"?(visits|subscriptions|dependents|user_roles|payments|card_validations|clinic_plan_periods)"?\s/;

/** The figure statements of `url` without its caller's read (the caller cache is off here). */
const figureStatements = (statements: string[]) => statements.filter((statement) => FIGURE_TABLES.test(statement) && !/"sessions"/.test(statement));

/**
 * The figure statements of one view of `url` once its figures are kept: the set-up's messages are let arrive first,
 * then one view computes and keeps the figures, and the one measured should read none.
 */
async function figureStatementsOnceKept(cookie: string, url: string): Promise<string[]> {
  await t.app.caches.delivered();
  await read(cookie, url);
  return figureStatements(await statementsDuring(t, () => read(cookie, url)));
}

/** `url`'s answer once every message committed so far has reached the app (PostgreSQL: milliseconds after the commit). */
async function readOnceDelivered<T>(cookie: string, url: string): Promise<T> {
  await t.app.caches.delivered();
  return read<T>(cookie, url);
}

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false', FIGURES_CACHE_MS: '60000', SIGN_IN_IP_LIMIT: '1000' });
  clinicA = await createProgramme(t, 'Clínica dos Números Guardados');
  clinicB = await createProgramme(t, 'Clínica do Lado');
  ownerA = (await createSignedInUser(t, 'clinic_admin', clinicA.clinicId)).cookie;
  ownerB = (await createSignedInUser(t, 'clinic_admin', clinicB.clinicId)).cookie;
  staffA = (await createSignedInUser(t, 'clinic_staff', clinicA.clinicId)).cookie;
  staffB = (await createSignedInUser(t, 'clinic_staff', clinicB.clinicId)).cookie;
  platformAdmin = (await createSignedInUser(t, 'admin')).cookie;
  holderA = await createPatient(t, clinicA);
  cardA = await subscribeAndPay(t, clinicA, holderA);
  cardB = await subscribeAndPay(t, clinicB, await createPatient(t, clinicB));
});
afterAll(() => t.close());

describe('the dashboards’ figures cache', () => {
  it('computes a clinic’s Dashboard and charts once, then answers without reading a figure', async () => {
    for (const url of ['/api/clinic/dashboard', '/api/clinic/dashboard/charts']) {
      const first = (await statementsDuring(t, () => read(ownerA, url))).filter((statement) => FIGURE_TABLES.test(statement));
      expect(first.length).toBeGreaterThan(0);
      expect(await figureStatementsOnceKept(ownerA, url)).toEqual([]);
    }
  });

  it('counts a visit recorded at the desk on the next view of the Dashboard and the charts', async () => {
    const before = await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    const chartsBefore = await read<ClinicCharts>(ownerA, '/api/clinic/dashboard/charts');
    const today = saoPauloDay(new Date());
    const visitsToday = (charts: ClinicCharts) => charts.days.find((day) => day.day === today)?.visits ?? 0;

    await recordVisit(staffA, cardA.id);

    const after = await readOnceDelivered<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    expect(after.kpis.appointmentsToday).toBe(before.kpis.appointmentsToday + 1);
    expect(after.recentVisits).toHaveLength(before.recentVisits.length + 1);
    const chartsAfter = await readOnceDelivered<ClinicCharts>(ownerA, '/api/clinic/dashboard/charts');
    expect(visitsToday(chartsAfter)).toBe(visitsToday(chartsBefore) + 1);
  });

  it('sees a dependent added by hand in SQL: the triggers send the news, not the app', async () => {
    const before = await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    await t.db.insert(dependents).values({ clinicId: clinicA.clinicId, holderUserId: holderA.userId, fullName: 'Dependente Inserida à Mão' });
    const after = await readOnceDelivered<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    expect(after.kpis.activePatients).toBe(before.kpis.activePatients + 1);
  });

  it('keeps a clinic’s figures through another clinic’s visit, and never answers one clinic with another’s', async () => {
    const keptA = await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    expect(await figureStatementsOnceKept(ownerA, '/api/clinic/dashboard')).toEqual([]);
    const beforeB = await read<ClinicDashboard>(ownerB, '/api/clinic/dashboard');

    await recordVisit(staffB, cardB.id);
    const afterB = await readOnceDelivered<ClinicDashboard>(ownerB, '/api/clinic/dashboard');
    expect(afterB.kpis.appointmentsToday).toBe(beforeB.kpis.appointmentsToday + 1);

    // B's messages have reached this process and B's answer changed: A's figures are still the kept ones, read from nothing.
    const statements = await statementsDuring(t, async () => expect(await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard')).toEqual(keptA));
    expect(figureStatements(statements)).toEqual([]);
    expect(afterB.recentVisits.every((visit) => visit.cardNumber === cardB.number)).toBe(true);
    expect(keptA.recentVisits.every((visit) => visit.cardNumber === cardA.number)).toBe(true);
  });

  it('keeps the admin Dashboard, and counts a patient signed up at any clinic on its next view', async () => {
    expect(await figureStatementsOnceKept(platformAdmin, '/api/admin/dashboard')).toEqual([]);
    const before = await read<AdminDashboard>(platformAdmin, '/api/admin/dashboard');
    await createPatient(t, clinicB);
    const after = await readOnceDelivered<AdminDashboard>(platformAdmin, '/api/admin/dashboard');
    expect(after.kpis.totalPatients).toBe(before.kpis.totalPatients + 1);
  });

  it('clears nothing for a change rolled back', async () => {
    expect(await figureStatementsOnceKept(ownerA, '/api/clinic/dashboard')).toEqual([]);
    await t.db
      .transaction(async (tx) => {
        await tx.insert(dependents).values({ clinicId: clinicA.clinicId, holderUserId: holderA.userId, fullName: 'Dependente Desfeita' });
        tx.rollback();
      })
      .catch(() => undefined);
    // A user's row is no figure: its change sends nothing to this cache either.
    await t.db.update(users).set({ name: 'Nome Novo do Titular' }).where(eq(users.id, holderA.userId));
    // A message, had either change sent one, would have arrived before this marker sent after them.
    await t.app.caches.delivered();
    const statements = await statementsDuring(t, () => read(ownerA, '/api/clinic/dashboard'));
    expect(figureStatements(statements)).toEqual([]);
  });
});
