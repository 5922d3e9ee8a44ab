import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { platformSettings } from '../../db/schema.ts';

export type SettingsRow = typeof platformSettings.$inferSelect;
type SettingsChanges = Partial<Omit<typeof platformSettings.$inferInsert, 'id'>>;

/** The platform has one settings row (a CHECK constraint holds it to id 1). */
const SINGLETON_ID = 1;
const isTheRow = eq(platformSettings.id, SINGLETON_ID);

/**
 * Job markers are bookkeeping, not a change an admin made: `updated_at` keeps its value. The Configurações form is
 * keyed by it, and a bump would remount the form and wipe an admin's unsaved edits.
 */
function keepUpdatedAt() {
  return { updatedAt: sql`${platformSettings.updatedAt}` };
}

/** Makes the settings row on first use; the column defaults are the specification's defaults. */
export async function ensureSettingsRow(db: Database, overrides: SettingsChanges = {}): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ id: SINGLETON_ID, ...overrides })
    .onConflictDoNothing({ target: platformSettings.id });
}

export async function findSettingsRow(db: Database): Promise<SettingsRow | null> {
  const [row] = await db.select().from(platformSettings).where(isTheRow);
  return row ?? null;
}

/** An admin's save ('Salvar Alterações'): `updated_at` moves, which tells other screens to start again from it. */
export async function updateSettingsRow(db: Database, changes: SettingsChanges): Promise<SettingsRow | null> {
  const [row] = await db.update(platformSettings).set(changes).where(isTheRow).returning();
  return row ?? null;
}

/**
 * The platform's scheduled jobs, each with the column that marks its last run and the Configurações switch that
 * turns it on. Claiming a run is one conditional UPDATE: of several server processes sharing the database, exactly
 * one gets the row back and does the work.
 *
 * The daily backup also records when it was done: a claim older than its lease with nothing done since the due time
 * was left by a process that died mid-dump, and the next tick takes it over (a second backup costs only disk). The
 * e-mails have no lease on purpose: a process that died after sending would send them twice.
 */
const SCHEDULED_JOBS = {
  /** 'Relatórios automáticos': the weekly report. */
  weeklyReport: { key: 'weeklyReportSentAt', marker: platformSettings.weeklyReportSentAt, enabled: platformSettings.notifyAutomaticReports },
  /** The daily backup at 3 am. */
  dailyBackup: {
    key: 'dailyBackupClaimedAt',
    marker: platformSettings.dailyBackupClaimedAt,
    enabled: platformSettings.backupDailyEnabled,
    lease: { doneKey: 'dailyBackupDoneAt', done: platformSettings.dailyBackupDoneAt, ms: 2 * 60 * 60 * 1000 },
  },
  /** 'Pagamentos pendentes': the daily e-mail of clinics with overdue charges. */
  overdueDigest: { key: 'overdueDigestSentAt', marker: platformSettings.overdueDigestSentAt, enabled: platformSettings.notifyPendingPayments },
} as const satisfies Record<
  string,
  { key: keyof SettingsRow; marker: unknown; enabled: unknown; lease?: { doneKey: keyof SettingsRow; done: unknown; ms: number } }
>;
export type ScheduledJob = keyof typeof SCHEDULED_JOBS;

function leaseOf(job: ScheduledJob) {
  const definition = SCHEDULED_JOBS[job];
  return 'lease' in definition ? definition.lease : null;
}

/** Takes the job's run upon this process if its switch is on and nobody took it since `due`; answers whether it did. */
export async function claimScheduledJob(db: Database, job: ScheduledJob, due: Date, now: Date): Promise<boolean> {
  const { key, marker, enabled } = SCHEDULED_JOBS[job];
  const lease = leaseOf(job);
  const abandoned = lease ? and(lt(marker, new Date(now.getTime() - lease.ms)), or(isNull(lease.done), lt(lease.done, due))) : undefined;
  const claimed = await db
    .update(platformSettings)
    .set({ [key]: now, ...keepUpdatedAt() })
    .where(and(isTheRow, eq(enabled, true), or(isNull(marker), lt(marker, due), abandoned)))
    .returning({ id: platformSettings.id });
  return claimed.length > 0;
}

/** Records that the run claimed at `claimedAt` finished, for the jobs whose claims expire. */
async function finishScheduledJob(db: Database, job: ScheduledJob, claimedAt: Date): Promise<void> {
  const lease = leaseOf(job);
  if (!lease) return;
  await db
    .update(platformSettings)
    .set({ [lease.doneKey]: claimedAt, ...keepUpdatedAt() })
    .where(isTheRow);
}

/**
 * Gives a claim back after the job failed, so the next attempt (this process's or another's) takes it: no mark is
 * "never ran", which any due time accepts. Only the claim made at `claimedAt` is given back, never a newer one.
 */
export async function releaseScheduledJob(db: Database, job: ScheduledJob, claimedAt: Date): Promise<void> {
  const { key, marker } = SCHEDULED_JOBS[job];
  await db
    .update(platformSettings)
    .set({ [key]: null, ...keepUpdatedAt() })
    .where(and(isTheRow, eq(marker, claimedAt)));
}

/**
 * Runs `work` if this process claims the job's run since `due` (null when another process or an earlier tick has
 * it). A failure — of a query or of the delivery — gives the claim back and is thrown, so a later attempt does it.
 */
export async function runClaimedJob<T>(db: Database, job: ScheduledJob, due: Date, now: Date, work: () => Promise<T>): Promise<T | null> {
  if (!(await claimScheduledJob(db, job, due, now))) return null;
  try {
    const result = await work();
    await finishScheduledJob(db, job, now);
    return result;
  } catch (error) {
    // The work's own error is the one to report; a release that fails too (the database is down) leaves the claim
    // taken, and the next due time runs the job again.
    await releaseScheduledJob(db, job, now).catch(() => undefined);
    throw error;
  }
}
