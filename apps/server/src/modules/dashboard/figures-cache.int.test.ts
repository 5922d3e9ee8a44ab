/**
 * The dashboards' figures cache (issue 28, ADR 036): a process computes a clinic's Dashboard, its charts and the admin
 * Dashboard once, then serves them without reading the database, until a row they count changes — through the app or
 * by hand in SQL — and the triggers' message clears that clinic's figures and the platform's, no other clinic's. The
 * cache keeps figures a minute here, so a change seen within a second can only be the message's doing.
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

/** The figure statements of one view of `url`, once its figures are kept (messages of the set-up may still arrive). */
async function figureStatementsOnceKept(cookie: string, url: string): Promise<string[]> {
  let statements: string[] = [];
  for (let attempt = 0; attempt < 40; attempt += 1) {
    statements = (await statementsDuring(t, () => read(cookie, url))).filter((statement) => FIGURE_TABLES.test(statement) && !/"sessions"/.test(statement));
    if (statements.length === 0) return statements;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return statements;
}

/** `url`'s answer once `changed` holds (the message reaches a PostgreSQL app milliseconds after the commit). */
async function onceChanged<T>(cookie: string, url: string, changed: (answer: T) => boolean): Promise<T> {
  let answer = await read<T>(cookie, url);
  for (let attempt = 0; attempt < 40 && !changed(answer); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    answer = await read<T>(cookie, url);
  }
  return answer;
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

    const after = await onceChanged<ClinicDashboard>(ownerA, '/api/clinic/dashboard', (answer) => answer.kpis.appointmentsToday !== before.kpis.appointmentsToday);
    expect(after.kpis.appointmentsToday).toBe(before.kpis.appointmentsToday + 1);
    expect(after.recentVisits).toHaveLength(before.recentVisits.length + 1);
    const chartsAfter = await onceChanged<ClinicCharts>(ownerA, '/api/clinic/dashboard/charts', (answer) => visitsToday(answer) !== visitsToday(chartsBefore));
    expect(visitsToday(chartsAfter)).toBe(visitsToday(chartsBefore) + 1);
  });

  it('sees a dependent added by hand in SQL: the triggers send the news, not the app', async () => {
    const before = await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    await t.db.insert(dependents).values({ clinicId: clinicA.clinicId, holderUserId: holderA.userId, fullName: 'Dependente Inserida à Mão' });
    const after = await onceChanged<ClinicDashboard>(ownerA, '/api/clinic/dashboard', (answer) => answer.kpis.activePatients !== before.kpis.activePatients);
    expect(after.kpis.activePatients).toBe(before.kpis.activePatients + 1);
  });

  it('keeps a clinic’s figures through another clinic’s visit, and never answers one clinic with another’s', async () => {
    const keptA = await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard');
    expect(await figureStatementsOnceKept(ownerA, '/api/clinic/dashboard')).toEqual([]);
    const beforeB = await read<ClinicDashboard>(ownerB, '/api/clinic/dashboard');

    await recordVisit(staffB, cardB.id);
    const afterB = await onceChanged<ClinicDashboard>(ownerB, '/api/clinic/dashboard', (answer) => answer.kpis.appointmentsToday !== beforeB.kpis.appointmentsToday);
    expect(afterB.kpis.appointmentsToday).toBe(beforeB.kpis.appointmentsToday + 1);

    // B's message reached this process (B's answer changed): A's figures are still the kept ones, read from nothing.
    const statements = await statementsDuring(t, async () => expect(await read<ClinicDashboard>(ownerA, '/api/clinic/dashboard')).toEqual(keptA));
    expect(statements.filter((statement) => FIGURE_TABLES.test(statement) && !/"sessions"/.test(statement))).toEqual([]);
    expect(afterB.recentVisits.every((visit) => visit.cardNumber === cardB.number)).toBe(true);
    expect(keptA.recentVisits.every((visit) => visit.cardNumber === cardA.number)).toBe(true);
  });

  it('keeps the admin Dashboard, and counts a patient signed up at any clinic on its next view', async () => {
    expect(await figureStatementsOnceKept(platformAdmin, '/api/admin/dashboard')).toEqual([]);
    const before = await read<AdminDashboard>(platformAdmin, '/api/admin/dashboard');
    await createPatient(t, clinicB);
    const after = await onceChanged<AdminDashboard>(platformAdmin, '/api/admin/dashboard', (answer) => answer.kpis.totalPatients !== before.kpis.totalPatients);
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
    // A message, had one been sent, arrives within milliseconds: give it far more than that.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statements = await statementsDuring(t, () => read(ownerA, '/api/clinic/dashboard'));
    expect(statements.filter((statement) => FIGURE_TABLES.test(statement) && !/"sessions"/.test(statement))).toEqual([]);
  });
});
