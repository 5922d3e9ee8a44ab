import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { base32 } from '@better-auth/utils/base32';
import { createOTP } from '@better-auth/utils/otp';
import type { DestinationStream } from 'pino';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { PlatformSettings, PlatformSettingsForm } from '@carteirinha/shared/contracts/settings';
import type { Role } from '@carteirinha/shared/roles';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openPglite, type Database, type DatabaseHandle } from '../src/db/client.ts';
import { createMigratedPostgresDatabase, openMigratedPglite } from './template-database.ts';
import type { PaymentStatus } from '@carteirinha/shared/contracts/payments';
import { clinics, contractTerms, payments, subscriptionPlans, subscriptions, userRoles, users } from '../src/db/schema.ts';
import { defaultTermsBody } from '../src/modules/checkout/default-terms.ts';
import { recordLocalCharge } from '../src/modules/payments/providers/local.ts';
import { createPostgresDatabase } from './postgres-database.ts';
import { testPasswordHasher } from './password-hasher.ts';
import { ensureSettingsRow } from '../src/modules/settings/repository.ts';
import { DEMO_SETTINGS } from '../src/modules/settings/store.ts';

export const TEST_PASSWORD = 'senha-forte-123';
/** The auth secret every test app is built with (the boxes of sealed secrets derive from it). */
export const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789';
export const PUBLIC_URL = 'http://127.0.0.1:3999';

/** Which database this test project runs on (set per Vitest project). */
export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

/**
 * A migrated database of this project's kind with no rows, of the test's own: a copy of the run's migrated template
 * (template-database.ts). `from: 'empty'` migrates an empty database instead, for the test of the migrations.
 */
export async function createTestDatabase(options: { from?: 'template' | 'empty' } = {}): Promise<DatabaseHandle> {
  if (options.from !== 'empty') return testDatabaseKind() === 'postgres' ? createMigratedPostgresDatabase() : openMigratedPglite();
  const database = testDatabaseKind() === 'postgres' ? await createPostgresDatabase() : await openPglite(undefined);
  await database.migrate();
  return database;
}

export type TestApp = {
  app: FastifyInstance;
  db: Database;
  database: DatabaseHandle;
  config: Config;
  dataDir: string;
  close: () => Promise<void>;
};

/**
 * The whole application on a fresh database, with a throw-away data folder and a tiny web build (`prepareWeb` adds
 * to it before the server reads it). `logStream` receives the log (give LOG_LEVEL too: tests are silent by default).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    logStream?: DestinationStream;
    now?: () => Date;
    sessionClock?: () => Date;
    prepareWeb?: (webDir: string) => Promise<void>;
    /** better-auth's own scrypt, as in production, instead of the tests' cheap one (password-hasher.ts). */
    productionPasswordHashing?: boolean;
  } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-test-'));
  const webDir = path.join(dataDir, 'web');
  await fs.mkdir(webDir);
  await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><html lang="pt-BR"><body><div id="root"></div></body></html>');
  await options.prepareWeb?.(webDir);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL,
    WEB_DIST_DIR: webDir,
    // The captcha is off for tests that are about something else; its own tests turn it on (ADR 029).
    CAPTCHA: 'off',
    // Tests change sessions, roles and clinics straight in the database and ask at once; on PostgreSQL the trigger's
    // message reaches the app a moment later. The caller cache's own tests turn it on (caller-cache.int.test.ts), and
    // the figures cache's (figures-cache.int.test.ts): the dashboards' tests move the clock, which the cache's age reads.
    CALLER_CACHE_MS: '0',
    FIGURES_CACHE_MS: '0',
    ...env,
  });
  const database = await createTestDatabase();
  // Like the embedded demo: tests that need the stricter defaults turn them on through the settings API.
  await ensureSettingsRow(database.db, DEMO_SETTINGS);
  const app = await buildApp({
    config,
    database,
    authSecret: TEST_AUTH_SECRET,
    logStream: options.logStream,
    ...(options.now ? { now: options.now } : {}),
    ...(options.sessionClock ? { sessionClock: options.sessionClock } : {}),
    ...(options.productionPasswordHashing ? {} : { passwordHasher: testPasswordHasher }),
  });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The statements the application sent to the database while `work` ran (DatabaseHandle.onStatement). */
export async function statementsDuring(testApp: Pick<TestApp, 'database'>, work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const stop = testApp.database.onStatement((statement) => statements.push(statement));
  try {
    await work();
  } finally {
    stop();
  }
  return statements;
}

/**
 * Lets the work a request left behind finish: the background tasks (a webhook's processing after its answer) and the
 * jobs they wrote (cards, e-mails, provider calls), until none is left. Jobs retried later are not waited for.
 */
export async function settleWork(t: Pick<TestApp, 'app'>): Promise<void> {
  for (;;) {
    await t.app.background.settled();
    if ((await t.app.jobs.drain()) === 0) return;
  }
}

export type ApiCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) => Promise<LightMyRequestResponse>;

/** Calls the API with a session cookie, as the signed-in browser would. `cookie` is read at call time. */
export function apiAs(testApp: () => TestApp, cookie: () => string): ApiCall {
  return (method, url, payload) => testApp().app.inject({ method, url, headers: { cookie: cookie() }, ...(payload ? { payload } : {}) });
}

/** The URL of the test's own PostgreSQL database (createTestApp makes a fresh one on the TEST_DATABASE_URL server). */
export async function databaseUrlOf(testApp: { db: Database }): Promise<string> {
  const result = await testApp.db.execute(sql`select current_database() as name`);
  const [row] = z.object({ rows: z.array(z.object({ name: z.string() })) }).parse(result).rows;
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.pathname = `/${row?.name ?? ''}`;
  return url.toString();
}

/** The `cookie` request header that carries a response's Set-Cookie values. */
export function cookieHeaderOf(response: LightMyRequestResponse): string {
  return response.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
}

let emailCounter = 0;
/** A unique e-mail for one test. */
export function uniqueEmail(prefix = 'pessoa'): string {
  emailCounter += 1;
  return `${prefix}.${emailCounter}.${randomBytes(3).toString('hex')}@teste.dev`;
}

export async function signUp(app: FastifyInstance, input: { email: string; password?: string; name?: string }) {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: PUBLIC_URL },
    payload: { email: input.email, password: input.password ?? TEST_PASSWORD, name: input.name ?? 'Pessoa de Teste' },
  });
}

export async function signIn(app: FastifyInstance, email: string, password = TEST_PASSWORD, remoteAddress = '127.0.0.1') {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: PUBLIC_URL },
    remoteAddress,
    payload: { email, password },
  });
}

/** Signs a new user up, gives them a role, and returns their id and a session cookie. */
export async function createSignedInUser(
  testApp: TestApp,
  role: Role | null,
  clinicId: string | null = null,
): Promise<{ userId: string; email: string; cookie: string }> {
  const email = uniqueEmail(role ?? 'sem-funcao');
  const response = await signUp(testApp.app, { email });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const userId = response.json<{ user: { id: string } }>().user.id;
  if (role) await testApp.db.insert(userRoles).values({ userId, role, clinicId });
  return { userId, email, cookie: cookieHeaderOf(response) };
}

/** The account's owner opened the confirmation link (onboarding and roles by e-mail ask for it, ADR 006). */
export async function confirmEmailOf(testApp: TestApp, userId: string): Promise<void> {
  await testApp.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
}

/** Who calls the API in the authorization matrix and the fuzz suite: nobody, an account with no role, and each role. */
export const CALLERS = ['anonymous', 'noRole', 'patientA', 'staffA', 'clinicAdminA', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];
export type SignedInCaller = Exclude<Caller, 'anonymous'>;
/** Two clinics with a plan each: the callers' own (A) and another tenant (B). */
export type CallerFixtures = { clinicA: string; clinicB: string; planA: string; planB: string };
export type Callers = {
  fixtures: CallerFixtures;
  cookies: Record<SignedInCaller, string>;
  userIds: Record<SignedInCaller, string>;
};

/** Clinics A and B, and one signed-in account of each kind of caller (of clinic A where the role has a clinic). */
export async function createCallers(testApp: TestApp): Promise<Callers> {
  const a = await createClinic(testApp.db, 'Clínica A');
  const b = await createClinic(testApp.db, 'Clínica B');
  const noRole = await createSignedInUser(testApp, null);
  const patientA = await createSignedInUser(testApp, 'patient', a.clinicId);
  const staffA = await createSignedInUser(testApp, 'clinic_staff', a.clinicId);
  const clinicAdminA = await createSignedInUser(testApp, 'clinic_admin', a.clinicId);
  const admin = await createSignedInUser(testApp, 'admin');
  const accounts = { noRole, patientA, staffA, clinicAdminA, admin };
  const pick = <K extends 'cookie' | 'userId'>(key: K): Record<SignedInCaller, string> => ({
    noRole: accounts.noRole[key],
    patientA: accounts.patientA[key],
    staffA: accounts.staffA[key],
    clinicAdminA: accounts.clinicAdminA[key],
    admin: accounts.admin[key],
  });
  return {
    fixtures: { clinicA: a.clinicId, clinicB: b.clinicId, planA: a.planId, planB: b.planId },
    cookies: pick('cookie'),
    userIds: pick('userId'),
  };
}

let cnpjCounter = 0;
/** A clinic with one patient plan. The CNPJ is unique per call (format only: check digits are not this helper's job). */
export async function createClinic(db: Database, name = 'Clínica de Teste'): Promise<{ clinicId: string; planId: string }> {
  cnpjCounter += 1;
  const suffix = `${Date.now()}${cnpjCounter}`.slice(-8);
  const [clinic] = await db
    .insert(clinics)
    .values({ name, cnpj: `99${suffix}0001`.slice(0, 14), slug: `clinica-${suffix}-${cnpjCounter}`, status: 'active' })
    .returning({ id: clinics.id });
  if (!clinic) throw new Error('clinic not created');
  const [plan] = await db
    .insert(subscriptionPlans)
    .values({ clinicId: clinic.id, name: `Plano ${name}`, priceCents: 9990 })
    .returning({ id: subscriptionPlans.id });
  if (!plan) throw new Error('plan not created');
  // Like every new clinic (subscription-plans/starter-programme.ts): version 1 of its contract terms.
  await db.insert(contractTerms).values({ clinicId: clinic.id, version: 1, body: defaultTermsBody(name, 5) });
  return { clinicId: clinic.id, planId: plan.id };
}

export type TestCharge = { status: PaymentStatus; amountCents: number; dueDate: string };

/**
 * A patient of the clinic subscribed to its plan, with the given charges: the rows checkout and the payment provider
 * write, made directly until those exist.
 */
export async function createSubscriptionWithPayments(
  testApp: TestApp,
  clinic: { clinicId: string; planId: string },
  charges: TestCharge[],
): Promise<{ userId: string; subscriptionId: string }> {
  const { userId } = await createSignedInUser(testApp, 'patient', clinic.clinicId);
  const [subscription] = await testApp.db
    .insert(subscriptions)
    .values({ clinicId: clinic.clinicId, userId, planId: clinic.planId, status: 'active', startedAt: new Date() })
    .returning({ id: subscriptions.id });
  if (!subscription) throw new Error('subscription not created');
  for (const charge of charges) {
    const providerPaymentId = `test_${randomBytes(8).toString('hex')}`;
    const paidAt = charge.status === 'received' || charge.status === 'confirmed' ? new Date() : null;
    await testApp.db.insert(payments).values({
      clinicId: clinic.clinicId,
      subscriptionId: subscription.id,
      provider: 'local',
      providerPaymentId,
      method: 'pix' as const,
      amountCents: charge.amountCents,
      dueDate: charge.dueDate,
      status: charge.status,
      paidAt,
    });
    // The embedded provider's own record of the same charge, as it would have made it.
    await recordLocalCharge(testApp.db, clinic.clinicId, { id: providerPaymentId, subscriptionId: null, status: charge.status.toUpperCase(), method: 'pix', amountCents: charge.amountCents, dueDate: charge.dueDate, paidAt }, new Date());
  }
  return { userId, subscriptionId: subscription.id };
}

/** The Configurações form as the screen sends it, from what GET /api/admin/settings answered. */
export function settingsFormOf(current: PlatformSettings, changes: Partial<PlatformSettingsForm> = {}): PlatformSettingsForm {
  const { smtpPasswordSet: _set, mainDomain: _domain, lastBackup: _backup, demoSeed: _demo, googleAvailable: _google, updatedAt: _at, ...fields } = current;
  return { ...fields, smtpPassword: null, currentPassword: TEST_PASSWORD, ...changes };
}

/** Changes some platform settings through the admin API, as the Configurações screen does. */
export async function changeSettings(testApp: TestApp, adminCookie: string, changes: Partial<PlatformSettingsForm>): Promise<void> {
  const current = await testApp.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: adminCookie } });
  if (current.statusCode !== 200) throw new Error(`settings read failed: ${current.statusCode} ${current.body}`);
  const response = await testApp.app.inject({
    method: 'PUT',
    url: '/api/admin/settings',
    headers: { cookie: adminCookie, origin: PUBLIC_URL },
    payload: settingsFormOf(current.json<PlatformSettings>(), changes),
  });
  if (response.statusCode !== 200) throw new Error(`settings save failed: ${response.statusCode} ${response.body}`);
}

/**
 * An authenticator app for a TOTP factor: `enrolTotp` turns two-factor on for the signed-in user (password, then a
 * first code) and hands back the session cookie that passed it and a source of codes the server has not seen yet
 * (each code is accepted once, one 30 s step either side of now).
 */
/**
 * The codes of the authenticator app that scanned this otpauth:// URI. `next()` gives a code the server accepts now
 * (one 30 s step either side of the current one) that was not given before: each code is accepted once, so a test
 * that needs several must not count on the clock standing still.
 */
export function totpCodes(totpUri: string): { next: () => Promise<string> } {
  const secret = new URL(totpUri).searchParams.get('secret');
  if (!secret) throw new Error('no secret in the otpauth URI');
  const used = new Set<number>();
  return {
    next: async () => {
      const current = Math.floor(Date.now() / 30_000);
      const step = [current, current + 1, current - 1].find((candidate) => !used.has(candidate));
      if (step === undefined) throw new Error('no unused TOTP step in the window');
      used.add(step);
      return createOTP(base32.decode(secret), { digits: 6, period: 30 }).hotp(step);
    },
  };
}

export async function enrolTotp(testApp: TestApp, cookie: string): Promise<{ cookie: string; backupCodes: string[]; nextCode: () => Promise<string> }> {
  const post = (url: string, sessionCookie: string, payload: Record<string, unknown>) =>
    testApp.app.inject({ method: 'POST', url, headers: { cookie: sessionCookie, origin: PUBLIC_URL }, payload });
  const enabled = await post('/api/auth/two-factor/enable', cookie, { password: TEST_PASSWORD });
  if (enabled.statusCode !== 200) throw new Error(`two-factor enable failed: ${enabled.statusCode} ${enabled.body}`);
  const { totpURI, backupCodes } = enabled.json<{ totpURI: string; backupCodes: string[] }>();
  const nextCode = totpCodes(totpURI).next;
  const verified = await post('/api/auth/two-factor/verify-totp', cookie, { code: await nextCode() });
  if (verified.statusCode !== 200) throw new Error(`two-factor verify failed: ${verified.statusCode} ${verified.body}`);
  return { cookie: cookieHeaderOf(verified) || cookie, backupCodes, nextCode };
}
