/**
 * Delinquency and reminders (ADR 013): plain functions of (db, deps, now), run by the 'delinquency' and
 * 'payment-reminders' jobs and called directly by tests with a controlled clock.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { enqueueFollowUps, PATIENT_NOTICE_QUEUE, type FollowUpQueue } from '../subscriptions/follow-ups.ts';
import * as lifecycle from '../subscriptions/lifecycle.ts';
import { addDaysToDay } from '../subscriptions/periods.ts';
import { applyToPayment } from './ledger.ts';
import type { WebhookLog } from './webhook-events.ts';

/** The runner takes the transitions' follow-ups (e-mails above all) in each transaction. */
export type DelinquencyDeps = { jobs: FollowUpQueue; log: WebhookLog };

/** Rows handled per batch: each is its own short transaction, so one run never holds many locks. */
const BATCH = 200;
/** The first reminder goes this many days before the due date. */
export const REMINDER_DAYS_BEFORE = 3;

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
      const outcome = await db.transaction((tx) => applyToPayment(tx, id, 'overdue', 'delinquency', { jobs: deps.jobs, now }));
      if (outcome === 'moved') marked += 1;
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
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.status, 'overdue'), isNull(subscriptions.canceledAt), isNotNull(subscriptions.expiresAt), lte(subscriptions.expiresAt, now)));
  let sent = 0;
  for (const candidate of candidates) {
    const told = await db.transaction(async (tx) => {
      const subscription = await lifecycle.lockSubscription(tx, candidate.id);
      if (!subscription) return false;
      return lifecycle.noticeGraceEnded({ tx, jobs: deps.jobs, now, source: 'delinquency', actorUserId: null }, subscription);
    });
    if (told) sent += 1;
  }
  if (sent > 0) deps.log.info({ suspended: sent }, 'payments.benefits_suspended');
  return sent;
}

/** Subscriptions past their paid-through date end: the lifecycle's expiry (canceled or expired). */
export async function expireSubscriptions(db: Database, deps: DelinquencyDeps, now: Date): Promise<{ canceled: number; expired: number }> {
  const ended = await db.transaction((tx) => lifecycle.expireDue({ tx, jobs: deps.jobs, now, source: 'delinquency', actorUserId: null }));
  if (ended.canceled + ended.expired > 0) deps.log.info(ended, 'payments.subscriptions_ended');
  return ended;
}

/** Downgrades whose date has come take effect (ADR 028), before the expiry looks at those subscriptions. */
export async function applyDueDowngrades(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const applied = await db.transaction((tx) => lifecycle.applyDuePlanChanges({ tx, jobs: deps.jobs, now, source: 'delinquency', actorUserId: null }));
  if (applied > 0) deps.log.info({ applied }, 'payments.plan_changes_applied');
  return applied;
}

/** The 'delinquency' job: overdue charges, then suspension notices, then downgrades due, then expiries. */
export async function runDelinquency(db: Database, deps: DelinquencyDeps, now: Date): Promise<void> {
  await markOverdueCharges(db, deps, now);
  await noticeSuspendedBenefits(db, deps, now);
  await applyDueDowngrades(db, deps, now);
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
    // An upgrade's charge is paid there and then or not at all (ADR 028): it is no cycle to be reminded of.
    .where(and(eq(payments.status, 'pending'), isNull(sentColumn), isNull(payments.planChangeId), window, isNull(subscriptions.canceledAt), inArray(subscriptions.status, ['pending', 'active', 'overdue'])))
    .limit(1_000);
}

/**
 * The 'payment-reminders' job: an e-mail 3 days before the due date and one on the due date, each once per charge
 * (the sent-at column is claimed in the transaction that writes the e-mail's job, so two servers never both send it).
 */
export async function sendPaymentReminders(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const today = saoPauloDay(now);
  let sent = 0;
  for (const kind of ['reminderBefore', 'reminderDue'] as const) {
    const sentColumn = kind === 'reminderBefore' ? payments.reminderBeforeSentAt : payments.reminderDueSentAt;
    const field = kind === 'reminderBefore' ? 'reminderBeforeSentAt' : 'reminderDueSentAt';
    for (const candidate of await reminderCandidates(db, kind, today)) {
      // The e-mail's job is written with the claim: both or neither.
      const claimed = await db.transaction(async (tx) => {
        const rows = await tx
          .update(payments)
          .set({ [field]: now })
          .where(and(eq(payments.id, candidate.id), isNull(sentColumn), eq(payments.status, 'pending')))
          .returning({ id: payments.id });
        if (rows.length === 0) return false;
        const notice = { kind, userId: candidate.userId, planName: candidate.planName, amountCents: candidate.amountCents, dueDate: candidate.dueDate };
        await enqueueFollowUps(deps.jobs, tx, [{ queue: PATIENT_NOTICE_QUEUE, notice, key: `${kind}:${candidate.id}` }]);
        return true;
      });
      if (claimed) sent += 1;
    }
  }
  if (sent > 0) deps.log.info({ sent }, 'payments.reminders_sent');
  return sent;
}

/** The patient is told this many days before a subscription that will not renew ends (issue 29). */
export const ENDING_NOTICE_DAYS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Subscriptions that end within ENDING_NOTICE_DAYS and that nothing renews — the renewal turned off or cancelled, or a
 * company's membership reaching its date — are told so once per end: `ending_notice_for` keeps the paid-through date
 * told, claimed with the notice's job in one transaction (two servers never both tell it; a later end, after the
 * renewal came back and went off again, is told again).
 */
export async function noticeEndingSubscriptions(db: Database, deps: DelinquencyDeps, now: Date): Promise<number> {
  const horizon = new Date(now.getTime() + ENDING_NOTICE_DAYS * DAY_MS);
  const notYetTold = or(isNull(subscriptions.endingNoticeFor), sql`${subscriptions.endingNoticeFor} <> ${subscriptions.expiresAt}`);
  const ending = and(
    eq(subscriptions.status, 'active'),
    or(isNotNull(subscriptions.canceledAt), isNotNull(subscriptions.companyMembershipId)),
    gt(subscriptions.expiresAt, now),
    lte(subscriptions.expiresAt, horizon),
    notYetTold,
  );
  const candidates = await db.select({ id: subscriptions.id }).from(subscriptions).where(ending).limit(1_000);
  let told = 0;
  for (const candidate of candidates) {
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .update(subscriptions)
        .set({ endingNoticeFor: sql`${subscriptions.expiresAt}` })
        .where(and(eq(subscriptions.id, candidate.id), ending))
        .returning({ userId: subscriptions.userId, planId: subscriptions.planId, expiresAt: subscriptions.expiresAt, amountCents: subscriptions.amountCents });
      if (!row?.expiresAt) return false;
      const [plan] = await tx.select({ name: subscriptionPlans.name, priceCents: subscriptionPlans.priceCents }).from(subscriptionPlans).where(eq(subscriptionPlans.id, row.planId)).limit(1);
      if (!plan) return false;
      const notice = { kind: 'subscriptionEnding' as const, userId: row.userId, planName: plan.name, amountCents: row.amountCents ?? plan.priceCents, endsAt: row.expiresAt };
      await enqueueFollowUps(deps.jobs, tx, [{ queue: PATIENT_NOTICE_QUEUE, notice, key: `subscriptionEnding:${candidate.id}:${row.expiresAt.toISOString()}` }]);
      return true;
    });
    if (claimed) told += 1;
  }
  if (told > 0) deps.log.info({ told }, 'payments.subscriptions_ending_told');
  return told;
}
