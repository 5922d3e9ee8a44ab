import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminDashboard, AlertKind } from '@carteirinha/shared/contracts/dashboard';
import { clinics, plans, subscriptions, userRoles } from '../../db/schema.ts';
import { confirmEmailOf, createClinic, createSignedInUser, createSubscriptionWithPayments, createTestApp, type TestApp, apiAs } from '../../../test/helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** What the card lists of each kind (dashboard/repository.ts); the totals count the rest. */
const ALERTS_PER_KIND = 10;

let t: TestApp;
let cookie: string;
let planId: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await createSignedInUser(t, 'admin')).cookie;
  const [plan] = await t.db.insert(plans).values({ name: 'Professional', priceCents: 69_700 }).returning({ id: plans.id });
  planId = plan!.id;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => cookie);

async function dashboard(): Promise<AdminDashboard> {
  const response = await api('GET', '/api/admin/dashboard');
  expect(response.statusCode).toBe(200);
  return response.json<AdminDashboard>();
}

function alertsOf(board: AdminDashboard, kind: AlertKind) {
  return board.alerts.filter((alert) => alert.kind === kind);
}

/** A clinic in the given state, written directly: the shapes the sign-up, the admin and the jobs leave behind. */
async function clinicIn(name: string, state: Partial<typeof clinics.$inferInsert>) {
  const clinic = await createClinic(t.db, name);
  await t.db.update(clinics).set(state).where(eq(clinics.id, clinic.clinicId));
  return clinic;
}

/** Someone signs up on the platform and creates their clinic: a trial awaiting approval. */
async function signUpClinic(name: string, slug: string, cnpj: string): Promise<string> {
  const owner = await createSignedInUser(t, null);
  await confirmEmailOf(t, owner.userId);
  const response = await t.app.inject({ method: 'POST', url: '/api/onboarding/clinic', headers: { cookie: owner.cookie, host: 'localhost' }, payload: { name, cnpj, slug } });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ clinicId: string }>().clinicId;
}

describe('admin dashboard', () => {
  it('computes the four KPIs from the database', async () => {
    const paying = await clinicIn('Clínica Pagante', { planId, status: 'active' });
    await createSubscriptionWithPayments(t, paying, [{ status: 'received', amountCents: 8_990, dueDate: '2026-01-10' }]);
    const board = await dashboard();

    const count = async (rows: Promise<unknown[]>) => (await rows).length;
    const mrr = (await api('GET', '/api/admin/plans/summary')).json().mrrCents;
    expect(board.kpis).toEqual({
      activeClinics: await count(t.db.select().from(clinics).where(eq(clinics.status, 'active'))),
      totalPatients: await count(t.db.select().from(userRoles).where(eq(userRoles.role, 'patient'))),
      activeSubscriptions: await count(t.db.select().from(subscriptions).where(eq(subscriptions.status, 'active'))),
      monthlyRevenueCents: mrr,
    });
    expect(board.kpis.monthlyRevenueCents).toBeGreaterThanOrEqual(69_700);
    expect(board.kpis.totalPatients).toBeGreaterThanOrEqual(1);
    expect(board.recentClinics[0]).toEqual({ id: paying.clinicId, name: 'Clínica Pagante', status: 'active', createdAt: expect.any(String) });
    expect(board.recentClinics.length).toBeLessThanOrEqual(5);
  });

  it('raises each kind of alert, each from its own query', async () => {
    const now = Date.now();
    const ending = await clinicIn('Trial Terminando', { status: 'trial', trialEndsAt: new Date(now + 2 * DAY_MS), approvedAt: new Date() });
    // Ends soon and was never approved: warned of once, as ending.
    const endingUnapproved = await clinicIn('Cadastro Terminando', { status: 'trial', trialEndsAt: new Date(now + DAY_MS), approvedAt: null });
    const later = await clinicIn('Trial Longe', { status: 'trial', trialEndsAt: new Date(now + 10 * DAY_MS), approvedAt: new Date() });
    const suspended = await clinicIn('Clínica Suspensa', { status: 'suspended' });
    const pending = await signUpClinic('Clínica Recém Cadastrada', 'recem-cadastrada', '45.723.174/0001-10');

    const late = await clinicIn('Clínica Inadimplente', { planId, status: 'active' });
    await createSubscriptionWithPayments(t, late, [
      { status: 'overdue', amountCents: 8_990, dueDate: '2026-02-10' },
      { status: 'pending', amountCents: 8_990, dueDate: '2026-01-10' },
      { status: 'pending', amountCents: 8_990, dueDate: '2099-01-10' },
    ]);
    const upToDate = await clinicIn('Clínica Em Dia', { planId, status: 'active' });
    await createSubscriptionWithPayments(t, upToDate, [
      { status: 'received', amountCents: 8_990, dueDate: '2026-01-10' },
      { status: 'pending', amountCents: 8_990, dueDate: '2099-01-10' },
    ]);

    const board = await dashboard();
    const ids = (kind: AlertKind) => alertsOf(board, kind).map((alert) => alert.clinicId);
    expect(ids('trial_ending')).toEqual(expect.arrayContaining([ending.clinicId, endingUnapproved.clinicId]));
    expect(ids('trial_ending')).not.toContain(later.clinicId);
    expect(ids('pending_approval')).toContain(pending);
    expect(ids('pending_approval')).not.toContain(endingUnapproved.clinicId);
    expect(ids('pending_approval')).not.toContain(later.clinicId);
    expect(ids('suspended')).toContain(suspended.clinicId);
    expect(ids('overdue_payments')).toEqual([late.clinicId]);

    // Since the oldest unpaid charge past due, midnight in São Paulo.
    expect(alertsOf(board, 'overdue_payments')[0]).toMatchObject({ clinicName: 'Clínica Inadimplente', date: '2026-01-10T03:00:00.000Z' });
    expect(alertsOf(board, 'trial_ending').find((alert) => alert.clinicId === ending.clinicId)?.date).not.toBeNull();
    // Overdue payments come first.
    expect(board.alerts[0]?.kind).toBe('overdue_payments');
    for (const kind of ['trial_ending', 'pending_approval', 'suspended', 'overdue_payments'] as const) {
      expect(board.alertTotals[kind], kind).toBeGreaterThanOrEqual(alertsOf(board, kind).length);
    }
  });

  it('lists a fresh sign-up even when sixty abandoned trials await approval, and counts them all', async () => {
    const longAgo = new Date(Date.now() - 20 * DAY_MS);
    await t.db.insert(clinics).values(
      Array.from({ length: 60 }, (_, index) => ({
        name: `Trial Abandonado ${index}`,
        cnpj: `77${String(index).padStart(12, '0')}`,
        slug: `abandonado-${index}`,
        status: 'trial' as const,
        trialEndsAt: new Date(longAgo.getTime() + 14 * DAY_MS),
        createdAt: longAgo,
      })),
    );
    const fresh = await signUpClinic('Clínica Nova Hoje', 'nova-hoje', '11.444.777/0001-61');
    const ending = await clinicIn('Trial Acabando Hoje', { status: 'trial', trialEndsAt: new Date(Date.now() + 3_600_000), approvedAt: new Date() });
    const suspended = await clinicIn('Outra Suspensa', { status: 'suspended' });

    const board = await dashboard();
    const pending = alertsOf(board, 'pending_approval');
    expect(pending[0]?.clinicId).toBe(fresh);
    expect(pending).toHaveLength(ALERTS_PER_KIND);
    expect(board.alertTotals.pending_approval).toBeGreaterThanOrEqual(61);
    // The other kinds keep their own places.
    expect(alertsOf(board, 'trial_ending').map((alert) => alert.clinicId)).toContain(ending.clinicId);
    expect(alertsOf(board, 'suspended').map((alert) => alert.clinicId)).toContain(suspended.clinicId);
    expect(alertsOf(board, 'overdue_payments')).not.toHaveLength(0);
  });
});
