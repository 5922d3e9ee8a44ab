/**
 * Delinquency and reminders (ADR 013): plain functions of (db, deps, now), run by the 'delinquency' and
 * 'payment-reminders' jobs and called directly by tests with a controlled clock.
 */
import { and, asc, eq, exists, gt, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { benefitsEndOf } from './benefits.ts';
import { applyToPayment, graceDaysOf, type LedgerEffects } from './ledger.ts';
import type { Notify, PaymentNotice } from './notices.ts';
import { addDaysToDay } from './periods.ts';
import type { WebhookLog } from './webhook-events.ts';

/** `cardBox` because the ledger takes it for every move (marking a charge overdue never issues a card). */
export type DelinquencyDeps = { notify: Notify; log: WebhookLog; cardBox: SecretBox };

/** Rows handled per batch: each is its own short transaction, so one run never holds many locks. */
const BATCH = 200;
/** The first reminder goes this many days before the due date. */
export const REMINDER_DAYS_BEFORE = 3;
const SUSPENDED_ACTION = 'subscription.benefits_suspended';

/**
 * Open charges whose due day (São Paulo) has passed become overdue, and their subscription with them; the patient is
 * told (once: a charge becomes overdue once). Asaas's own PAYMENT_OVERDUE, arriving before or after, changes nothing
 * more.
 */
export async function markOverdueCharges(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const today = saoPauloDay(now);
  let marked = 0;
  for (;;) {
    const due = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.status, 'pending'), lt(payments.dueDate, today)))
      .orderBy(asc(payments.dueDate))
      .limit(BATCH);
    for (const { id } of due) {
      const effects: LedgerEffects = { notices: [] };
      const outcome = await db.transaction((tx) => applyToPayment(tx, id, 'overdue', 'delinquency', effects, now, deps.cardBox));
      if (outcome === 'moved') marked += 1;
      deps.notify(effects.notices);
    }
    if (due.length < BATCH) break;
  }
  if (marked > 0) deps.log.info({ marked }, 'payments.charges_overdue');
  return marked;
}

/**
 * Overdue subscriptions whose grace has run out: their cards stop validating (benefits.ts decides that from the
 * dates alone); here the patient is told, once per unpaid period (an audit row per paid-through date is the record).
 */
export async function noticeSuspendedBenefits(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const candidates = await db
    .select({ id: subscriptions.id, clinicId: subscriptions.clinicId, userId: subscriptions.userId, expiresAt: subscriptions.expiresAt, canceledAt: subscriptions.canceledAt, planName: subscriptionPlans.name })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.status, 'overdue'), isNull(subscriptions.canceledAt), isNotNull(subscriptions.expiresAt), lte(subscriptions.expiresAt, now)));
  let sent = 0;
  for (const candidate of candidates) {
    const notices: PaymentNotice[] = [];
    await db.transaction(async (tx) => {
      const end = benefitsEndOf(candidate, await graceDaysOf(tx, candidate.clinicId));
      if (!end || end.getTime() > now.getTime() || !candidate.expiresAt) return;
      const [locked] = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.id, candidate.id)).for('update').limit(1);
      if (!locked) return;
      const period = candidate.expiresAt.toISOString();
      const [already] = await tx
        .select({ id: auditLog.id })
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'subscription'), eq(auditLog.entityId, candidate.id), eq(auditLog.action, SUSPENDED_ACTION), sql`${auditLog.details}->>'expiresAt' = ${period}`))
        .limit(1);
      if (already) return;
      const [charge] = await tx
        .select({ amountCents: payments.amountCents, dueDate: payments.dueDate })
        .from(payments)
        .where(and(eq(payments.subscriptionId, candidate.id), eq(payments.status, 'overdue')))
        .orderBy(asc(payments.dueDate))
        .limit(1);
      await tx.insert(auditLog).values({ actorUserId: null, action: SUSPENDED_ACTION, entity: 'subscription', entityId: candidate.id, clinicId: candidate.clinicId, details: { expiresAt: period, benefitsEndedAt: end.toISOString() } });
      if (charge) notices.push({ kind: 'suspended', userId: candidate.userId, planName: candidate.planName, amountCents: charge.amountCents, dueDate: charge.dueDate });
    });
    if (notices.length > 0) sent += 1;
    deps.notify(notices);
  }
  if (sent > 0) deps.log.info({ suspended: sent }, 'payments.benefits_suspended');
  return sent;
}

/** A charge of the subscription still waiting to be paid: the renewal is under way, so it does not simply expire. */
const hasOpenCharge = (db: Database) =>
  exists(
    db
      .select({ one: sql`1` })
      .from(payments)
      .where(and(eq(payments.subscriptionId, subscriptions.id), inArray(payments.status, ['pending', 'overdue']))),
  );

/**
 * Subscriptions past their paid-through date end:
 * - cancelled by the patient (or the provider) and run to the end of the paid period → `canceled`;
 * - not cancelled, but with no charge open for the next cycle (no renewal was made: the provider stopped making
 *   charges, or the renewal was deleted) → `expired`.
 * One with an open renewal charge stays as it is: the charge's due date and the grace decide (overdue → suspended).
 */
export async function expireSubscriptions(db: Database, deps: DelinquencyDeps, now: Date): Promise<{ canceled: number; expired: number }> {
  const canceled = await db
    .update(subscriptions)
    .set({ status: 'canceled', updatedAt: now })
    .where(and(eq(subscriptions.status, 'active'), isNotNull(subscriptions.canceledAt), lte(subscriptions.expiresAt, now)))
    .returning({ id: subscriptions.id, clinicId: subscriptions.clinicId });
  const expired = await db
    .update(subscriptions)
    .set({ status: 'expired', updatedAt: now })
    .where(and(eq(subscriptions.status, 'active'), isNull(subscriptions.canceledAt), lte(subscriptions.expiresAt, now), sql`not ${hasOpenCharge(db)}`))
    .returning({ id: subscriptions.id, clinicId: subscriptions.clinicId });
  const ended = [...canceled.map((row) => ({ ...row, to: 'canceled' })), ...expired.map((row) => ({ ...row, to: 'expired' }))];
  if (ended.length > 0) {
    await db.insert(auditLog).values(ended.map((row) => ({ actorUserId: null, action: `subscription.${row.to}`, entity: 'subscription', entityId: row.id, clinicId: row.clinicId, details: { source: 'delinquency' } })));
    deps.log.info({ canceled: canceled.length, expired: expired.length }, 'payments.subscriptions_ended');
  }
  return { canceled: canceled.length, expired: expired.length };
}

/** The 'delinquency' job: overdue charges, then suspension notices, then expiries. */
export async function runDelinquency(db: Database, deps: DelinquencyDeps, now: Date): Promise<void> {
  await markOverdueCharges(db, deps, now);
  await noticeSuspendedBenefits(db, deps, now);
  await expireSubscriptions(db, deps, now);
}

type ReminderKind = 'reminderBefore' | 'reminderDue';

/** Open charges of live subscriptions due in the window, created before the reminder's day (no reminder for a charge made the same day). */
async function reminderCandidates(db: Database, kind: ReminderKind, today: string) {
  const sentColumn = kind === 'reminderBefore' ? payments.reminderBeforeSentAt : payments.reminderDueSentAt;
  const window =
    kind === 'reminderBefore'
      ? and(gt(payments.dueDate, today), lte(payments.dueDate, addDaysToDay(today, REMINDER_DAYS_BEFORE)), sql`${payments.createdAt} < (${payments.dueDate} - ${REMINDER_DAYS_BEFORE}::int)::timestamp at time zone 'America/Sao_Paulo'`)
      : and(eq(payments.dueDate, today), lt(payments.createdAt, saoPauloMidnight(today)));
  return db
    .select({ id: payments.id, amountCents: payments.amountCents, dueDate: payments.dueDate, userId: subscriptions.userId, planName: subscriptionPlans.name })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(payments.status, 'pending'), isNull(sentColumn), window, isNull(subscriptions.canceledAt), inArray(subscriptions.status, ['pending', 'active', 'overdue'])))
    .limit(1_000);
}

/**
 * The 'payment-reminders' job: an e-mail 3 days before the due date and one on the due date, each once per charge
 * (the sent-at column is claimed before the e-mail goes, so two servers never both send it).
 */
export async function sendPaymentReminders(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const today = saoPauloDay(now);
  let sent = 0;
  for (const kind of ['reminderBefore', 'reminderDue'] as const) {
    const sentColumn = kind === 'reminderBefore' ? payments.reminderBeforeSentAt : payments.reminderDueSentAt;
    const field = kind === 'reminderBefore' ? 'reminderBeforeSentAt' : 'reminderDueSentAt';
    for (const candidate of await reminderCandidates(db, kind, today)) {
      const claimed = await db
        .update(payments)
        .set({ [field]: now })
        .where(and(eq(payments.id, candidate.id), isNull(sentColumn), eq(payments.status, 'pending')))
        .returning({ id: payments.id });
      if (claimed.length === 0) continue;
      deps.notify([{ kind, userId: candidate.userId, planName: candidate.planName, amountCents: candidate.amountCents, dueDate: candidate.dueDate }]);
      sent += 1;
    }
  }
  if (sent > 0) deps.log.info({ sent }, 'payments.reminders_sent');
  return sent;
}
