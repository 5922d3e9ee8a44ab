import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, min, or, sql } from 'drizzle-orm';
import type { AdminDashboard, AlertKind, DashboardAlert } from '@carteirinha/shared/contracts/dashboard';
import type { Database } from '../../db/client.ts';
import { clinics, payments, subscriptions, userRoles, webhookEvents } from '../../db/schema.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { totalOf } from '../../lib/sql.ts';
import { platformPlanSummary } from '../plans/service.ts';

const TRIAL_WARNING_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Each kind of alert is its own query with its own limit, so that many of one kind (dozens of abandoned trials) never
 * push another kind out of the card; the totals tell how many more the clinics list holds.
 */
const ALERTS_PER_KIND = 10;
/** The e-mail digest of overdue payments lists more clinics than the card does. */
const OVERDUE_DIGEST_LIMIT = 50;
const RECENT_CLINICS = 5;

/** A kind's listed alerts and how many clinics it concerns in all. */
export type AlertsOfKind = { alerts: DashboardAlert[]; total: number };

/** The number of rows the query matched before its limit (a window over the whole result). */
const matchedRows = sql<number>`count(*) over ()`.mapWith(Number);

function alertsOf(kind: AlertKind, rows: { id: string | null; name: string | null; date: Date | null; matched: number }[]): AlertsOfKind {
  return {
    alerts: rows.map((row) => ({ kind, clinicId: row.id, clinicName: row.name, date: row.date?.toISOString() ?? null })),
    total: rows[0]?.matched ?? 0,
  };
}

function warningEnd(now: Date): Date {
  return new Date(now.getTime() + TRIAL_WARNING_DAYS * DAY_MS);
}

/** Trials ending within 3 days, the soonest first. */
async function trialEndingAlerts(db: Database, now: Date): Promise<AlertsOfKind> {
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, date: clinics.trialEndsAt, matched: matchedRows })
    .from(clinics)
    .where(and(eq(clinics.status, 'trial'), gte(clinics.trialEndsAt, now), lte(clinics.trialEndsAt, warningEnd(now))))
    .orderBy(asc(clinics.trialEndsAt), asc(clinics.id))
    .limit(ALERTS_PER_KIND);
  return alertsOf('trial_ending', rows);
}

/**
 * Self-service sign-ups awaiting approval that are not already warned of as ending soon, the newest first: a fresh
 * sign-up is what the admin acts on, while trials abandoned long ago wait at the end (and the expiry job suspends them).
 */
async function pendingApprovalAlerts(db: Database, now: Date): Promise<AlertsOfKind> {
  // ADR 010: a self-service sign-up awaits approval while it is a trial that 'Aprovar Cadastro' has not accepted.
  const awaitingApproval = and(eq(clinics.status, 'trial'), isNull(clinics.approvedAt));
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, date: clinics.trialEndsAt, matched: matchedRows })
    .from(clinics)
    .where(and(awaitingApproval, or(isNull(clinics.trialEndsAt), lt(clinics.trialEndsAt, now), gt(clinics.trialEndsAt, warningEnd(now)))))
    .orderBy(desc(clinics.createdAt), desc(clinics.id))
    .limit(ALERTS_PER_KIND);
  return alertsOf('pending_approval', rows);
}

/** Suspended clinics, the most recently changed first. */
async function suspendedAlerts(db: Database): Promise<AlertsOfKind> {
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, matched: matchedRows })
    .from(clinics)
    .where(eq(clinics.status, 'suspended'))
    .orderBy(desc(clinics.updatedAt), desc(clinics.id))
    .limit(ALERTS_PER_KIND);
  return alertsOf(
    'suspended',
    rows.map((row) => ({ ...row, date: null })),
  );
}

/**
 * Clinics with a charge past its due date and unpaid: marked overdue by the delinquency job, or still pending after
 * the due day (São Paulo) has passed. The date is the oldest such due date; the longest overdue come first. Also the
 * admins' 'Pagamentos pendentes' e-mail digest, which lists more of them than the card.
 */
export async function overduePaymentAlerts(db: Database, now: Date, limit = OVERDUE_DIGEST_LIMIT): Promise<AlertsOfKind> {
  const today = saoPauloDay(now);
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, since: min(payments.dueDate), matched: matchedRows })
    .from(payments)
    .innerJoin(clinics, eq(clinics.id, payments.clinicId))
    .where(or(eq(payments.status, 'overdue'), and(eq(payments.status, 'pending'), lt(payments.dueDate, today))))
    .groupBy(clinics.id, clinics.name)
    .orderBy(asc(min(payments.dueDate)), asc(clinics.id))
    .limit(limit);
  return alertsOf(
    'overdue_payments',
    rows.map((row) => ({ ...row, date: row.since ? saoPauloMidnight(row.since) : null })),
  );
}

/**
 * Clinics with a settlement held for conferral (issue 22): the provider reported less than the charge is for, so it
 * extended nothing and waits for someone to look. The oldest first.
 */
async function heldPaymentAlerts(db: Database): Promise<AlertsOfKind> {
  const rows = await db
    .select({ id: clinics.id, name: clinics.name, date: min(payments.heldAt), matched: matchedRows })
    .from(payments)
    .innerJoin(clinics, eq(clinics.id, payments.clinicId))
    .where(and(isNotNull(payments.heldAt), inArray(payments.status, ['pending', 'overdue'])))
    .groupBy(clinics.id, clinics.name)
    .orderBy(asc(min(payments.heldAt)), asc(clinics.id))
    .limit(ALERTS_PER_KIND);
  return alertsOf('payment_held', rows);
}

/** How long a provider event that failed for good stays on the card (Asaas keeps a paused queue 14 days). */
const FAILED_EVENT_ALERT_DAYS = 14;

/**
 * Provider events whose processing failed on its last attempt and that nothing processed since (issue 22), by the
 * clinic of the charge or subscription they name (or of the URL they came to); the oldest first.
 */
async function failedWebhookAlerts(db: Database, now: Date): Promise<AlertsOfKind> {
  const chargeClinic = sql`(select ${payments.clinicId} from ${payments} where ${payments.provider} = ${webhookEvents.provider}
    and ${payments.providerPaymentId} = ${webhookEvents.payload}->'payment'->>'id' limit 1)`;
  const subscriptionClinic = sql`(select ${subscriptions.clinicId} from ${subscriptions} where ${subscriptions.provider} = ${webhookEvents.provider}
    and ${subscriptions.providerSubscriptionId} = coalesce(${webhookEvents.payload}->'payment'->>'subscription', ${webhookEvents.payload}->'subscription'->>'id') limit 1)`;
  const events = db
    .select({ clinicId: sql<string | null>`coalesce(${chargeClinic}, ${subscriptionClinic}, ${webhookEvents.clinicId})`.as('clinic_id'), failedAt: webhookEvents.failedAt })
    .from(webhookEvents)
    .where(and(isNotNull(webhookEvents.failedAt), isNull(webhookEvents.processedAt), gte(webhookEvents.failedAt, new Date(now.getTime() - FAILED_EVENT_ALERT_DAYS * DAY_MS))))
    .as('failed');
  const rows = await db
    .select({ id: events.clinicId, name: clinics.name, date: min(events.failedAt), matched: matchedRows })
    .from(events)
    .leftJoin(clinics, eq(clinics.id, events.clinicId))
    .groupBy(events.clinicId, clinics.name)
    .orderBy(asc(min(events.failedAt)))
    .limit(ALERTS_PER_KIND);
  return alertsOf('webhook_failed', rows);
}

/** The newest clinics, with only what 'Clínicas Recentes' shows (no revenue sub-query, no page count). */
function recentClinics(db: Database) {
  return db
    .select({ id: clinics.id, name: clinics.name, status: clinics.status, createdAt: clinics.createdAt })
    .from(clinics)
    .orderBy(desc(clinics.createdAt), desc(clinics.id))
    .limit(RECENT_CLINICS);
}

/** GET /api/admin/dashboard: the four KPIs, the newest clinics and the alerts, overdue payments first. */
export async function adminDashboard(db: Database, now: Date): Promise<AdminDashboard> {
  const [activeClinics, totalPatients, activeSubscriptions, plans, recent, held, failedEvents, overdue, trialEnding, pending, suspended] = await Promise.all([
    totalOf(db.select({ total: count() }).from(clinics).where(eq(clinics.status, 'active'))),
    totalOf(db.select({ total: count() }).from(userRoles).where(eq(userRoles.role, 'patient'))),
    totalOf(db.select({ total: count() }).from(subscriptions).where(eq(subscriptions.status, 'active'))),
    platformPlanSummary(db, now),
    recentClinics(db),
    heldPaymentAlerts(db),
    failedWebhookAlerts(db, now),
    overduePaymentAlerts(db, now, ALERTS_PER_KIND),
    trialEndingAlerts(db, now),
    pendingApprovalAlerts(db, now),
    suspendedAlerts(db),
  ]);
  return {
    kpis: { activeClinics, totalPatients, activeSubscriptions, monthlyRevenueCents: plans.mrrCents },
    recentClinics: recent.map((clinic) => ({ ...clinic, createdAt: clinic.createdAt.toISOString() })),
    alerts: [...held.alerts, ...failedEvents.alerts, ...overdue.alerts, ...trialEnding.alerts, ...pending.alerts, ...suspended.alerts],
    alertTotals: {
      payment_held: held.total,
      webhook_failed: failedEvents.total,
      overdue_payments: overdue.total,
      trial_ending: trialEnding.total,
      pending_approval: pending.total,
      suspended: suspended.total,
    },
  };
}
