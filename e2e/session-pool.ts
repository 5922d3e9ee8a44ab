import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DEMO_ACCOUNTS } from '@carteirinha/shared/constants';

/**
 * Sessions for the demo accounts, made directly in the database before the server starts (seed-sessions.ts), so a
 * test needs no sign-in: CONVENTIONS.md, "Playwright signs in through a fixture that creates the session directly".
 * PGlite serves one process at a time, so they cannot be made while the server runs: a pool is made beforehand and
 * each test takes sessions nobody else took. A test may then sign out, end sessions or turn two-factor on without
 * disturbing another one.
 */

export type DemoAccount = keyof typeof DEMO_ACCOUNTS;

export const DEMO_ACCOUNT_NAMES = ['admin', 'clinicAdmin', 'clinicStaff', 'patient'] as const satisfies readonly DemoAccount[];

/**
 * Sessions made per account: about twice what a run takes (26/11: admin 141 — every admin test, and the helpers that
 * read the outbox as the admin —, clinicAdmin 7, clinicStaff 15, patient 16; 27/11: clinicStaff 33, the front desk's
 * tests). The teardown warns past 80 %; running out fails the test that asks, with a message saying so.
 */
export const SESSIONS_PER_ACCOUNT: Record<DemoAccount, number> = { admin: 280, clinicAdmin: 30, clinicStaff: 70, patient: 40 };

/** The session cookie as better-auth signs it (its test-utils' `login`), ready for `BrowserContext.addCookies`. */
const sessionCookieSchema = z.object({
  name: z.string(),
  value: z.string(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
  sameSite: z.enum(['Strict', 'Lax', 'None']),
  expires: z.number().optional(),
});
export type SessionCookie = z.infer<typeof sessionCookieSchema>;

const poolSchema = z.object({
  /** When the sessions were made: a staff session not used for `staffIdleMinutes` is over (session-limits.ts). */
  createdAt: z.iso.datetime(),
  staffIdleMinutes: z.number().int().positive(),
  sessions: z.record(z.enum(DEMO_ACCOUNT_NAMES), z.array(sessionCookieSchema)),
  /**
   * The demo patient's QR token as the card showed it a few minutes before the run: a real code that has expired, so
   * the 'QR Code expirado' test needs no wait of two 30 s steps (the server's window is one step either side).
   */
  expiredPatientCardToken: z.string(),
});
export type SessionPool = z.infer<typeof poolSchema>;

/**
 * The folder of one run: the server's data folder, the pool and the claims. Made by global-setup.ts, which hands it to
 * the workers through this variable (workers inherit the runner's environment).
 */
export const RUN_DIR_VARIABLE = 'CARTEIRINHA_E2E_RUN_DIR';

export function runDir(): string {
  const dir = process.env[RUN_DIR_VARIABLE];
  if (!dir) throw new Error(`${RUN_DIR_VARIABLE} is not set: the browser tests start through global-setup.ts (npx playwright test in e2e/)`);
  return dir;
}

export function poolFile(dir: string): string {
  return path.join(dir, 'sessions.json');
}

export function writePool(dir: string, pool: SessionPool): void {
  fs.writeFileSync(poolFile(dir), JSON.stringify(pool), { mode: 0o600 });
}

let loaded: SessionPool | undefined;
/** Where this worker's search for a free session of each account starts: the ones before it are all taken. */
const nextIndex: Partial<Record<DemoAccount, number>> = {};

function pool(): SessionPool {
  loaded ??= poolSchema.parse(JSON.parse(fs.readFileSync(poolFile(runDir()), 'utf8')));
  return loaded;
}

/** The demo patient's card token of a few minutes before the run (see the pool's schema). */
export function expiredPatientCardToken(): string {
  return pool().expiredPatientCardToken;
}

/** Whether a session made with the pool is still one a staff member could use (with a test's length to spare). */
export function staffSessionsStillValid(at: number, spareMs: number): boolean {
  const { createdAt, staffIdleMinutes } = pool();
  return at + spareMs < new Date(createdAt).getTime() + staffIdleMinutes * 60_000;
}

/**
 * A session of `account` that no other test has taken, in any worker: taking one is creating its claim folder, which
 * only one process can do.
 */
export function claimSession(account: DemoAccount): SessionCookie {
  const sessions = pool().sessions[account];
  const claims = path.join(runDir(), 'claims');
  fs.mkdirSync(claims, { recursive: true });
  for (let index = nextIndex[account] ?? 0; index < sessions.length; index += 1) {
    try {
      fs.mkdirSync(path.join(claims, `${account}-${index}`));
    } catch (error) {
      if (error instanceof Error && 'code' in error && error.code === 'EEXIST') continue;
      throw error;
    }
    nextIndex[account] = index + 1;
    const session = sessions[index];
    if (session) return session;
  }
  throw new Error(`every one of the ${sessions.length} sessions made for ${account} is taken: raise SESSIONS_PER_ACCOUNT in e2e/session-pool.ts`);
}

/** How many sessions of each account the run took, from the claims in `dir`. */
export function sessionsTaken(dir: string): Record<DemoAccount, number> {
  const claims = fs.existsSync(path.join(dir, 'claims')) ? fs.readdirSync(path.join(dir, 'claims')) : [];
  const taken = (account: DemoAccount) => claims.filter((claim) => claim.startsWith(`${account}-`)).length;
  return { admin: taken('admin'), clinicAdmin: taken('clinicAdmin'), clinicStaff: taken('clinicStaff'), patient: taken('patient') };
}
