import { and, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Role } from '@carteirinha/shared/roles';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SettingsStore } from '../settings/store.ts';

const MINUTE_MS = 60_000;
/** ASVS 4.0.3 V3.3.2 (security checklist): a staff session ends 12 h after sign-in however active it is. */
const STAFF_ABSOLUTE_MS = 12 * 60 * MINUTE_MS;
/** Last activity is written at most once a minute per session, not on every request. */
const ACTIVITY_WRITE_EVERY_MS = MINUTE_MS;

/** Admins and clinic teams time out on inactivity; patients keep better-auth's 7-day sliding session. */
export function isStaff(role: Role | null): boolean {
  return role === 'admin' || role === 'clinic_admin' || role === 'clinic_staff';
}

export type SessionTimes = { id: string; createdAt: Date | string; lastActiveAt?: Date | string | null | undefined };

/**
 * Applies Configurações' session timeout (minutes of inactivity) and the 12 h absolute limit to a staff session at
 * `at`: an expired session is deleted and the request answered SESSION_EXPIRED; a live one records the activity. Every
 * door that takes a session cookie calls it: our API guard and better-auth's own endpoints.
 */
export async function enforceStaffSessionLimits(
  deps: { db: Database; settings: SettingsStore; log: FastifyBaseLogger },
  session: SessionTimes,
  role: Role | null,
  at: Date,
): Promise<void> {
  if (!isStaff(role)) return;
  const now = at.getTime();
  const createdAt = new Date(session.createdAt).getTime();
  const idleMs = now - new Date(session.lastActiveAt ?? session.createdAt).getTime();
  const { sessionTimeoutMinutes } = await deps.settings.get();
  if (idleMs > sessionTimeoutMinutes * MINUTE_MS || now - createdAt > STAFF_ABSOLUTE_MS) {
    await deps.db.delete(sessions).where(eq(sessions.id, session.id));
    deps.log.info({ sessionId: session.id }, 'auth.session.expired');
    throw new AppError('SESSION_EXPIRED');
  }
  if (idleMs > ACTIVITY_WRITE_EVERY_MS) await stampActivity(deps.db, session.id, at);
}

/**
 * The activity stamp, written only while the stored one is over a minute old: requests that arrive together (a
 * page's parallel calls, several server processes) write it once, the others match no row.
 */
async function stampActivity(db: Database, sessionId: string, at: Date): Promise<void> {
  const stale = new Date(at.getTime() - ACTIVITY_WRITE_EVERY_MS);
  await db.update(sessions).set({ lastActiveAt: at }).where(and(eq(sessions.id, sessionId), lt(sessions.lastActiveAt, stale)));
}
