/**
 * The caller's identity in one statement (issue 28): what a signed-in request costs the database before its own work,
 * counted at the driver, and the writes a read request may make (the staff activity stamp, once a minute per session;
 * better-auth's sliding renewal, once a day per session) and no other.
 */
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, statementsDuring, type TestApp } from '../../../test/helpers.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The application's clock: starts at the real time (sessions are made with it) and is moved by the tests. */
/** The sessions' clock (better-auth's, the real time in production): the stamp and expiry tests move it. */
let clock = new Date();
/** The app's clock of the money rules, which other tests move a month ahead: it never ends a session. */
let appClock = new Date();
let t: TestApp;
let staff: { userId: string; cookie: string };
let admin: { userId: string; cookie: string };
let holder: Holder;
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false' }, { now: () => appClock, sessionClock: () => clock });
  clinicId = (await createClinic(t.db, 'Clínica da Identidade')).clinicId;
  staff = await createSignedInUser(t, 'clinic_staff', clinicId);
  admin = await createSignedInUser(t, 'admin');
  holder = await createCardHolder(t, clinicId);
  // A sign-up writes its confirmation e-mail's job after the answer: none of those may land among the counted statements.
  await t.app.background.settled();
});
afterAll(() => t.close());

/** Statements that read better-auth's sessions: the caller's identity. */
const isIdentity = (statement: string) => /"sessions"/.test(statement);
// A write, or a statement whose WITH writes (the attempt's insert bumps the user's count in its CTE).
const isWrite = (statement: string) => /^\s*(insert|update|delete)\b/i.test(statement) || /^\s*with\b.*\b(insert into|update|delete from)\b/is.test(statement);

type Counted = { response: LightMyRequestResponse; statements: string[] };

async function counted(request: () => Promise<LightMyRequestResponse>): Promise<Counted> {
  let response: LightMyRequestResponse | undefined;
  const statements = await statementsDuring(t, async () => {
    response = await request();
  });
  if (!response) throw new Error('no response');
  return { response, statements };
}

/**
 * The fewest statements of three calls: the platform settings are kept for 5 s per process, and their refresh may
 * land in any one call.
 */
async function fewest(request: () => Promise<LightMyRequestResponse>): Promise<Counted> {
  let best: Counted | null = null;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const call = await counted(request);
    expect(call.response.statusCode, call.response.body).toBeLessThan(300);
    if (!best || call.statements.length < best.statements.length) best = call;
  }
  if (!best) throw new Error('no call');
  return best;
}

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const validate = (cookie: string, number: string) =>
  t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie, origin: PUBLIC_URL }, payload: { cardToken: number, source: 'manual' } });

async function sessionOf(userId: string) {
  const [row] = await t.db.select().from(sessions).where(eq(sessions.userId, userId));
  if (!row) throw new Error('no session');
  return row;
}

/** Puts the clock at `at` with the user's activity stamp just written: the next minute writes nothing. */
async function freshStamp(userId: string, at: Date): Promise<void> {
  clock = at;
  await t.db.update(sessions).set({ lastActiveAt: at }).where(eq(sessions.userId, userId));
}

describe("the caller's identity", () => {
  it('is one statement on GET /api/me, which reads nothing else', async () => {
    await freshStamp(staff.userId, new Date());
    const me = await fewest(() => get(staff.cookie, '/api/me'));
    expect(me.statements.filter(isIdentity)).toHaveLength(1);
    // The one statement brings the role and the clinic with the session and the user.
    expect(me.statements[0]).toMatch(/"users".*"user_roles".*"clinics"/s);
    expect(me.statements).toHaveLength(1);
    expect(me.response.json()).toMatchObject({ user: { id: staff.userId }, role: 'clinic_staff', clinic: { name: 'Clínica da Identidade' } });
  });

  it('is one statement of a card validation, beside the card lookup and the recorded attempt', async () => {
    await freshStamp(staff.userId, new Date());
    const number = holder.cards[0]?.number ?? '';
    const validation = await fewest(() => validate(staff.cookie, number));
    expect(validation.response.json()).toMatchObject({ valid: true });
    expect(validation.statements.filter(isIdentity)).toHaveLength(1);
    expect(validation.statements.filter((statement) => /"user_roles"/.test(statement))).toHaveLength(1);
    // The one write: the attempt, with the bump of the user's count of the minute before it (one statement).
    expect(validation.statements.filter(isWrite)).toEqual([expect.stringMatching(/^with "bumped" as \(insert into "rate_limit_hits".*\) insert into "card_validations"/s)]);
    expect(validation.statements).toHaveLength(3);
  });

  it('reads nothing for a cookie whose signature is not the server’s, and refuses it', async () => {
    const [name, value = ''] = staff.cookie.split('=');
    const token = decodeURIComponent(value).split('.')[0] ?? '';
    const forged = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`;
    const call = await counted(() => get(forged, '/api/me'));
    expect(call.response.statusCode).toBe(401);
    expect(call.statements).toEqual([]);
    // The token alone, unsigned, is not a session either.
    expect((await get(`${name}=${token}`, '/api/me')).statusCode).toBe(401);
  });

  it('refuses a session past its expiry by the sessions’ clock, and not by the app’s clock of the money rules', async () => {
    // A patient: staff sessions end 12 hours after sign-in, long before better-auth's 7 days.
    const patient = await createSignedInUser(t, 'patient', clinicId);
    await t.app.background.settled();
    const { expiresAt } = await sessionOf(patient.userId);
    clock = new Date(expiresAt.getTime() + 1_000);
    expect((await get(patient.cookie, '/api/me')).statusCode).toBe(401);
    clock = new Date(expiresAt.getTime() - 1_000);
    expect((await get(patient.cookie, '/api/me')).statusCode).toBe(200);
    // Tests of renewals and delinquency move the app's clock a month ahead with sessions better-auth still honours.
    clock = new Date();
    appClock = new Date(clock.getTime() + 30 * DAY_MS);
    expect((await get(patient.cookie, '/api/me')).statusCode).toBe(200);
    appClock = new Date();
  });
});

describe('writes on a read request', () => {
  it('stamps a staff session’s activity at most once a minute', async () => {
    const start = new Date();
    await freshStamp(staff.userId, start);
    const at = async (ms: number) => {
      clock = new Date(start.getTime() + ms);
      return (await counted(() => get(staff.cookie, '/api/me'))).statements.filter(isWrite);
    };
    expect(await at(30_000)).toEqual([]);
    expect(await at(59_000)).toEqual([]);
    expect(await at(61_000)).toEqual([expect.stringMatching(/^update "sessions" set "last_active_at"/)]);
    expect((await sessionOf(staff.userId)).lastActiveAt.getTime()).toBe(start.getTime() + 61_000);
    expect(await at(90_000)).toEqual([]);
    expect(await at(120_000)).toEqual([]);
    expect(await at(122_000)).toHaveLength(1);
  });

  it('writes the stamp once when requests of one session arrive together', async () => {
    const start = new Date();
    await freshStamp(staff.userId, start);
    clock = new Date(start.getTime() + 2 * MINUTE_MS);
    const before = await sessionOf(staff.userId);
    await Promise.all(Array.from({ length: 5 }, () => get(staff.cookie, '/api/me')));
    // Each request saw the stale stamp, but the write matches only a stamp over a minute old: one row version, at
    // the request's time, whatever the order.
    const after = await sessionOf(staff.userId);
    expect(after.lastActiveAt.getTime()).toBe(clock.getTime());
    expect(after.lastActiveAt.getTime()).not.toBe(before.lastActiveAt.getTime());
    // The same minute again: nothing left to write.
    expect((await counted(() => get(staff.cookie, '/api/me'))).statements.filter(isWrite)).toEqual([]);
  });

  it('writes nothing for reads of the clinic, the admin back office and the patient', async () => {
    const now = new Date();
    await freshStamp(staff.userId, now);
    await freshStamp(admin.userId, now);
    const reads: Array<[string, string]> = [
      [staff.cookie, '/api/me'],
      [staff.cookie, '/api/session'],
      [staff.cookie, '/api/clinic/visits'],
      [admin.cookie, '/api/admin/clinics'],
      [admin.cookie, '/api/admin/users'],
      [holder.cookie, '/api/me'],
      [holder.cookie, '/api/patient/cards'],
    ];
    for (const [cookie, url] of reads) {
      const call = await counted(() => get(cookie, url));
      expect(call.response.statusCode, `${url}: ${call.response.body}`).toBe(200);
      expect(call.statements.filter(isWrite), url).toEqual([]);
    }
    // A patient has no inactivity limit: minutes later their reads still write nothing.
    clock = new Date(now.getTime() + 10 * MINUTE_MS);
    expect((await counted(() => get(holder.cookie, '/api/patient/cards'))).statements.filter(isWrite)).toEqual([]);
  });

  it('renews a remembered session through better-auth once a day, and carries the renewed cookie', async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    await t.app.background.settled();
    clock = new Date();
    // Signed in two days ago: the 7-day expiry was last pushed then, so a renewal is due (updateAge: one day).
    const pushedAt = new Date(clock.getTime() - 2 * DAY_MS);
    await t.db.update(sessions).set({ expiresAt: new Date(pushedAt.getTime() + 7 * DAY_MS) }).where(eq(sessions.userId, patient.userId));
    const renewal = await counted(() => get(patient.cookie, '/api/me'));
    expect(renewal.response.statusCode).toBe(200);
    expect(renewal.response.cookies.map((cookie) => cookie.name)).toContain('carteirinha.session_token');
    expect(renewal.statements.filter(isWrite)).toEqual([expect.stringMatching(/^update "sessions" set "expires_at"/)]);
    expect((await sessionOf(patient.userId)).expiresAt.getTime()).toBeGreaterThan(clock.getTime() + 6 * DAY_MS);
    // Renewed: the next request is one read again, with no cookie to set.
    const next = await counted(() => get(patient.cookie, '/api/me'));
    expect(next.response.cookies).toEqual([]);
    expect(next.statements.filter(isWrite)).toEqual([]);
  });
});
