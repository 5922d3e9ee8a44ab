import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messages } from '@carteirinha/shared/messages';
import type { PlatformSettings, PlatformSettingsForm } from '@carteirinha/shared/contracts/settings';
import { buildApp } from '../../app.ts';
import { auditLog, emailOutbox, jobs, platformSettings } from '../../db/schema.ts';
import { PGLITE_EXTENSIONS } from '../../db/client.ts';
import { createBackupService, DAILY_BACKUP, runDailyBackupIfDue } from '../backups/backups.ts';
import { DAILY_BACKUP_QUEUE } from '../backups/jobs.ts';
import { occurrenceKey } from '../jobs/runner.ts';
import { OVERDUE_DIGEST_QUEUE, WEEKLY_REPORT_QUEUE } from '../notifications/jobs.ts';
import { OVERDUE_PAYMENTS_DIGEST, WEEKLY_REPORT } from '../notifications/notifications.ts';
import { lastOccurrence } from '../../lib/schedule.ts';
import { backupFailureMessage, smtpFailureMessage } from './routes.ts';
import {
  changeSettings,
  createClinic,
  createSignedInUser,
  createSubscriptionWithPayments,
  createTestApp,
  settingsFormOf,
  TEST_PASSWORD,
  PUBLIC_URL,
  type TestApp,
  settleWork,
} from '../../../test/helpers.ts';
import { testPasswordHasher } from '../../../test/password-hasher.ts';

/** The auth secret createTestApp gives the app: a second process on the same database must share it. */
const TEST_AUTH_SECRET = 'test-secret-that-is-long-enough-0123456789';
const DAY_MS = 24 * 60 * 60 * 1000;

const s = messages.settings;

const execFileAsync = promisify(execFile);

/** Each table's row count and a checksum of its rows, by schema-qualified name. */
type TableSnapshot = Record<string, { rows: number; checksum: string }>;
/** Runs one SQL text and answers the driver's result ({ rows } for PGlite, node-postgres and drizzle alike). */
type RunQuery = (text: string) => Promise<unknown>;

const tableListSchema = z.object({ rows: z.array(z.object({ schema: z.string(), name: z.string() })) });
const tableFiguresSchema = z.object({ rows: z.array(z.object({ rows: z.number(), checksum: z.string() })) });

/**
 * Every table of the database (the migrations' own bookkeeping too), with its row count and an md5 of its rows in a
 * fixed order: security checklist 37, "equal per-table row counts and checksums" after a restore.
 */
async function snapshotTables(run: RunQuery): Promise<TableSnapshot> {
  const tables = tableListSchema.parse(
    await run(`select schemaname as schema, tablename as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1, 2`),
  ).rows;
  const snapshot: TableSnapshot = {};
  for (const table of tables) {
    const qualified = `"${table.schema}"."${table.name}"`;
    const [figures] = tableFiguresSchema.parse(
      await run(`select count(*)::int as rows, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as checksum from ${qualified} t`),
    ).rows;
    if (figures) snapshot[qualified] = figures;
  }
  return snapshot;
}

/** Restores a backup file into a fresh database of the same kind and snapshots its tables. */
async function snapshotBackup(t: TestApp, file: string): Promise<TableSnapshot> {
  if (t.database.kind === 'pglite') {
    const restored = await PGlite.create({ loadDataDir: new Blob([await fs.readFile(file)]), extensions: PGLITE_EXTENSIONS });
    try {
      return await snapshotTables((text) => restored.query(text));
    } finally {
      await restored.close();
    }
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `carteirinha_restore_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await execFileAsync('pg_restore', ['--no-owner', `--dbname=${url.toString()}`, file]);
    const restored = new pg.Client({ connectionString: url.toString() });
    await restored.connect();
    try {
      return await snapshotTables((text) => restored.query(text));
    } finally {
      await restored.end();
    }
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Another server process on the same database: its own app and data folder (so its own backups folder). */
/**
 * One scheduled occurrence as a server's tick runs it: enqueued (one job per occurrence, whichever process asks),
 * then run. Answers whether this call enqueued it.
 */
async function runOccurrence(app: FastifyInstance, queue: string, occurrence: Date): Promise<boolean> {
  const enqueued = await app.jobs.enqueueOccurrence(queue, occurrence);
  await app.jobs.drain();
  return enqueued !== null;
}

async function secondProcess(t: TestApp): Promise<{ app: FastifyInstance; dataDir: string; close: () => Promise<void> }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carteirinha-second-'));
  const app = await buildApp({ config: { ...t.config, dataDir }, database: t.database, authSecret: TEST_AUTH_SECRET, passwordHasher: testPasswordHasher });
  await app.ready();
  return {
    app,
    dataDir,
    close: async () => {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** When the settings row last changed for an admin (the Configurações form is keyed by it). */
async function settingsUpdatedAt(t: TestApp): Promise<string | undefined> {
  const [row] = await t.db.select({ updatedAt: platformSettings.updatedAt }).from(platformSettings);
  return row?.updatedAt.toISOString();
}

/** A port nothing listens on: opened and closed again, so a connection to it is refused at once. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real SMTP server on loopback that accepts one user and keeps what it receives (on `port`, or a free one). Its
 * port is not an SMTP port: the app under test allows it with SMTP_ALLOWED_PORTS.
 */
async function startSmtpServer(user: string, password: string, port = 0, options: { starttls?: boolean } = {}) {
  const received: string[] = [];
  const logins: { user: string | null | undefined; password: string | null | undefined }[] = [];
  const server = new SMTPServer({
    authOptional: false,
    // With STARTTLS on, the server offers its own self-signed certificate: a client that checks it must give up.
    disabledCommands: options.starttls ? [] : ['STARTTLS'],
    onAuth(auth, _session, callback) {
      logins.push({ user: auth.username, password: auth.password });
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return { port: address.port, received, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('admin Configurações', () => {
  let t: TestApp;
  let admin: { cookie: string; userId: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  const getSettings = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin.cookie } });
    expect(response.statusCode).toBe(200);
    return response.json<PlatformSettings>();
  };
  const putSettings = (payload: PlatformSettingsForm) =>
    t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: { cookie: admin.cookie, origin: PUBLIC_URL }, payload });

  it('starts from the specification defaults, with the demo seed exceptions said', async () => {
    const current = await getSettings();
    expect(current).toMatchObject({
      platformName: 'Carteirinha',
      notifyNewClinics: true,
      notifyPendingPayments: true,
      notifyAutomaticReports: true,
      notifyCancellations: false,
      googleLogin: true,
      sessionTimeoutMinutes: 30,
      backupDailyEnabled: true,
      backupRetentionDays: 30,
      // The embedded demo (and these tests) start with two-factor off and multiple sessions on.
      requireAdminTwoFactor: false,
      allowMultipleSessions: true,
      demoSeed: true,
      smtpHost: null,
      smtpPasswordSet: false,
      lastBackup: null,
    });
  });

  it('saves every field, reads it back, keeps the SMTP password sealed, and writes the audit trail', async () => {
    const saved = await putSettings(
      settingsFormOf(await getSettings(), {
        platformName: 'Saúde Mais',
        supportEmail: 'Contato@SaudeMais.com.br',
        phone: '(11) 3333-4444',
        notifyCancellations: true,
        notifyAutomaticReports: false,
        sessionTimeoutMinutes: '45',
        smtpHost: 'smtp.saudemais.com.br',
        smtpPort: '465',
        smtpUser: 'mailer',
        smtpPassword: 'segredo-smtp',
        backupRetentionDays: 14,
      }),
    );
    expect(saved.statusCode).toBe(200);
    const current = await getSettings();
    expect(current).toMatchObject({
      platformName: 'Saúde Mais',
      supportEmail: 'contato@saudemais.com.br',
      // Stored normalised, digits only, whatever mask was typed (issue 13); the screen masks it again.
      phone: '1133334444',
      notifyCancellations: true,
      notifyAutomaticReports: false,
      sessionTimeoutMinutes: 45,
      smtpHost: 'smtp.saudemais.com.br',
      smtpPort: 465,
      smtpUser: 'mailer',
      smtpPasswordSet: true,
      backupRetentionDays: 14,
    });
    expect(JSON.stringify(current)).not.toContain('segredo-smtp');
    const [row] = await t.db.select().from(platformSettings);
    expect(row?.smtpPasswordEncrypted).toMatch(/^v1\./);
    expect(row?.smtpPasswordEncrypted).not.toContain('segredo-smtp');

    // Saving again with the password field empty keeps the stored password.
    expect((await putSettings(settingsFormOf(current, { platformName: 'Saúde Mais 2' }))).statusCode).toBe(200);
    const [again] = await t.db.select().from(platformSettings);
    expect(again?.smtpPasswordEncrypted).toBe(row?.smtpPasswordEncrypted);

    const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'settings.updated')).orderBy(desc(auditLog.createdAt)).limit(1);
    expect(audit?.actorUserId).toBe(admin.userId);
    expect(audit?.details).toMatchObject({ platformName: 'Saúde Mais 2', smtpPasswordChanged: false });
  });

  it('asks for the password again before a change that weakens security or moves e-mail', async () => {
    const before = await getSettings();
    const weaker = settingsFormOf(before, { sessionTimeoutMinutes: before.sessionTimeoutMinutes + 60, currentPassword: undefined });
    const unconfirmed = await putSettings(weaker);
    expect(unconfirmed.statusCode).toBe(403);
    expect(unconfirmed.json().error).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED', message: messages.errors.REAUTHENTICATION_REQUIRED });
    const wrong = await putSettings({ ...weaker, currentPassword: 'nao-e-a-senha' });
    expect(wrong.json().error).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED', message: s.reauthWrongPassword });
    expect(await getSettings()).toEqual(before);

    expect((await putSettings({ ...weaker, currentPassword: TEST_PASSWORD })).statusCode).toBe(200);
    // A change that does not weaken anything needs no password.
    const plain = await putSettings(settingsFormOf(await getSettings(), { phone: '(21) 2222-3333', currentPassword: undefined }));
    expect(plain.statusCode).toBe(200);
  });

  it.each([
    ['an empty platform name', { platformName: ' ' }, s.platformNameRequired],
    ['a bad support e-mail', { supportEmail: 'suporte@' }, messages.validation.invalidEmail],
    ['a bad phone', { phone: '123' }, s.phoneInvalid],
    ['a timeout under 5 minutes', { sessionTimeoutMinutes: 2 }, s.sessionTimeoutInvalid],
    ['a non-numeric timeout', { sessionTimeoutMinutes: 'trinta' }, s.sessionTimeoutInvalid],
    ['a port out of range', { smtpPort: 70000 }, s.portInvalid],
    ['a bad SMTP host', { smtpHost: 'smtp server' }, s.hostInvalid],
    ['a retention of 0 days', { backupRetentionDays: 0 }, s.retentionInvalid],
  ])('refuses %s with a pt-BR message and changes nothing', async (_case, change, message) => {
    const before = await getSettings();
    const response = await putSettings(settingsFormOf(before, change as Partial<PlatformSettingsForm>));
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(message);
    expect(await getSettings()).toEqual(before);
  });

  it('refuses every settings endpoint to anyone but an admin', async () => {
    const { clinicId } = await createClinic(t.db);
    const callers = [await createSignedInUser(t, 'clinic_admin', clinicId), await createSignedInUser(t, 'patient', clinicId), await createSignedInUser(t, null)];
    const routes = [
      { method: 'GET', url: '/api/admin/settings' },
      { method: 'PUT', url: '/api/admin/settings' },
      { method: 'POST', url: '/api/admin/settings/smtp-test' },
      { method: 'POST', url: '/api/admin/backups' },
    ] as const;
    for (const caller of callers) {
      for (const route of routes) {
        const response = await t.app.inject({ ...route, headers: { cookie: caller.cookie, origin: PUBLIC_URL }, payload: route.method === 'GET' ? undefined : {} });
        expect(response.statusCode, `${route.method} ${route.url}`).toBe(403);
      }
    }
  });

  it('Fazer Backup Agora writes a real file under DATA_DIR/backups, and the last-backup line reads it', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: { cookie: admin.cookie, origin: PUBLIC_URL } });
    expect(response.statusCode).toBe(201);
    const backup = response.json<{ fileName: string; sizeBytes: number }>();
    // Read before any other request: a request moves its session's last activity.
    const original = await snapshotTables((text) => t.db.execute(sql.raw(text)));
    const stat = await fs.stat(path.join(t.dataDir, 'backups', backup.fileName));
    expect(stat.size).toBe(backup.sizeBytes);
    expect(stat.size).toBeGreaterThan(1000);
    expect((await getSettings()).lastBackup?.fileName).toBe(backup.fileName);

    // The file restores to the same data, table by table (security checklist 37).
    expect(original['"public"."users"']?.rows).toBeGreaterThan(0);
    expect(original['"public"."platform_settings"']?.rows).toBe(1);
    expect(await snapshotBackup(t, path.join(t.dataDir, 'backups', backup.fileName))).toEqual(original);
  });

  it('applies the retention: a backup older than the retention days is deleted by the next one', async () => {
    const folder = path.join(t.dataDir, 'backups');
    const extension = t.database.backupExtension;
    const named = (daysAgo: number) => path.join(folder, `carteirinha-${new Date(Date.now() - daysAgo * DAY_MS).toISOString().replace(/[:.]/g, '-')}${extension}`);
    const old = named(40);
    await fs.writeFile(old, 'old');
    const recent = named(5);
    await fs.writeFile(recent, 'recent');

    const response = await t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: { cookie: admin.cookie, origin: PUBLIC_URL } });
    expect(response.statusCode).toBe(201);
    await expect(fs.stat(old)).rejects.toThrow();
    await expect(fs.stat(recent)).resolves.toBeTruthy();
  });
});

describe('daily backup job', () => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  it('makes one backup per 3 am, and none while the switch is off', async () => {
    await changeSettings(t, admin.cookie, { backupDailyEnabled: false });
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, new Date())).toBeNull();

    await changeSettings(t, admin.cookie, { backupDailyEnabled: true });
    const made = await runDailyBackupIfDue(t.app.backups, t.app.settings, new Date());
    expect(made?.fileName).toMatch(/^carteirinha-.*/);
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, new Date())).toBeNull();
    // The next 3 am makes the next one.
    const tomorrow = new Date(Date.now() + DAY_MS);
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, tomorrow)).not.toBeNull();
    expect(await t.app.backups.list()).toHaveLength(2);
  });

  it('runs each 3 am occurrence once across two server processes on one database (one job), leaving updated_at alone', async () => {
    const other = await secondProcess(t);
    try {
      const updatedAt = await settingsUpdatedAt(t);
      const occurrence = lastOccurrence(new Date(), DAILY_BACKUP);
      // Both processes' ticks enqueue the same occurrence: one job, run by one of them.
      const enqueued = [await runOccurrence(t.app, DAILY_BACKUP_QUEUE, occurrence), await runOccurrence(other.app, DAILY_BACKUP_QUEUE, occurrence)];
      expect(enqueued).toEqual([true, false]);
      const rows = await t.db.select().from(jobs).where(eq(jobs.singletonKey, occurrenceKey(DAILY_BACKUP_QUEUE, occurrence)));
      expect(rows).toHaveLength(1);
      expect(rows[0]?.completedAt).not.toBeNull();
      expect(await settingsUpdatedAt(t)).toBe(updatedAt);
    } finally {
      await other.close();
    }
  });

  it('throws a failed backup (the runner retries it), and the next attempt makes it', async () => {
    const failing = createBackupService({
      database: { ...t.database, backup: () => Promise.reject(new Error('disco cheio')) },
      dataDir: path.join(t.dataDir, 'failing-process'),
      settings: t.app.settings,
      now: () => new Date(),
    });
    const threeDaysOn = new Date(Date.now() + 3 * DAY_MS);
    await expect(runDailyBackupIfDue(failing, t.app.settings, threeDaysOn)).rejects.toThrow('disco cheio');
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, threeDaysOn)).not.toBeNull();
    // A process that dies mid-dump is the runner's to take over once the lease ends: jobs.int.test.ts, "lets another
    // server take over a job whose server died, once the lease is over".
  });

  it('applies the retention on every tick, also while daily backups are off', async () => {
    await changeSettings(t, admin.cookie, { backupDailyEnabled: false, backupRetentionDays: 10 });
    const now = new Date();
    const backupOf = (at: Date) => path.join(t.dataDir, 'backups', `carteirinha-${at.toISOString().replace(/[:.]/g, '-')}${t.database.backupExtension}`);
    // The age is read from the instant in the name (the clock that wrote it), not from the file's mtime (the kernel's).
    const twentyDaysOld = backupOf(new Date(now.getTime() - 20 * DAY_MS));
    const nineDaysOld = backupOf(new Date(now.getTime() - 9 * DAY_MS));
    await fs.writeFile(twentyDaysOld, 'old');
    await fs.writeFile(nineDaysOld, 'recent');
    // A file copied in by hand, with no instant in its name, ages by its mtime.
    const copiedIn = path.join(t.dataDir, 'backups', `carteirinha-copia${t.database.backupExtension}`);
    await fs.writeFile(copiedIn, 'copied');
    await fs.utimes(copiedIn, new Date(now.getTime() - 20 * DAY_MS), new Date(now.getTime() - 20 * DAY_MS));
    const before = (await t.app.backups.list()).length;

    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, now)).toBeNull();
    await expect(fs.stat(twentyDaysOld)).rejects.toThrow();
    await expect(fs.stat(copiedIn)).rejects.toThrow();
    await expect(fs.stat(nineDaysOld)).resolves.toBeTruthy();
    expect(await t.app.backups.list()).toHaveLength(before - 2);
  });
});

describe('backup failures', () => {
  it('answers a failure other than an old pg_dump with the general message', () => {
    expect(backupFailureMessage(new Error('disco cheio'))).toBe(s.backupFailed);
  });
});

describe('SMTP from Configurações', () => {
  let t: TestApp;
  let admin: { cookie: string };
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let tlsSmtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let closed: number;
  let allowedPorts: number[];

  beforeAll(async () => {
    smtp = await startSmtpServer('mailer', 'senha-do-smtp');
    tlsSmtp = await startSmtpServer('mailer', 'senha-do-smtp', 0, { starttls: true });
    closed = await closedPort();
    allowedPorts = [587, smtp.port, tlsSmtp.port, closed];
    t = await createTestApp({ SMTP_ALLOWED_PORTS: allowedPorts.join(',') });
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => {
    await smtp.close();
    await tlsSmtp.close();
    await t.close();
  });

  const testConnection = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/admin/settings/smtp-test', headers: { cookie: admin.cookie, origin: PUBLIC_URL }, payload });

  it('Testar Conexão really connects: right credentials pass, wrong ones and a closed port fail, each with its pt-BR reason', async () => {
    const ok = await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' });
    expect(ok.json()).toEqual({ ok: true, message: s.smtpTestOk });
    // A relay on this machine, by name.
    expect((await testConnection({ smtpHost: 'localhost', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' })).json().ok).toBe(true);

    const wrong = (await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'errada' })).json();
    expect(wrong).toEqual({ ok: false, message: smtpFailureMessage('authentication', allowedPorts) });

    const refused = (await testConnection({ smtpHost: '127.0.0.1', smtpPort: closed, smtpUser: null, smtpPassword: null })).json();
    expect(refused).toEqual({ ok: false, message: smtpFailureMessage('connection_refused', allowedPorts) });

    // The server offers STARTTLS with a certificate nobody signed: the connection is not secured, so it fails.
    const tls = (await testConnection({ smtpHost: 'localhost', smtpPort: tlsSmtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' })).json();
    expect(tls).toEqual({ ok: false, message: smtpFailureMessage('tls', allowedPorts) });
    expect(tlsSmtp.logins).toEqual([]);

    const unknown = (await testConnection({ smtpHost: 'nao-existe.invalid', smtpPort: 587, smtpUser: null, smtpPassword: null })).json();
    expect(unknown).toEqual({ ok: false, message: smtpFailureMessage('dns_not_found', allowedPorts) });

    const noHost = await testConnection({ smtpHost: '', smtpPort: 587 });
    expect(noHost.statusCode).toBe(400);
    expect(noHost.json().error.message).toBe(s.smtpHostRequired);
  });

  it('is no port scanner: other ports and private, link-local or metadata addresses are refused before connecting', async () => {
    for (const port of [22, 80, 5432, 6379]) {
      const answer = (await testConnection({ smtpHost: '127.0.0.1', smtpPort: port, smtpUser: null, smtpPassword: null })).json();
      expect(answer).toEqual({ ok: false, message: smtpFailureMessage('port_not_allowed', allowedPorts) });
    }
    // (The form takes host names and IPv4 only; the IPv6 ranges are in smtp-target.test.ts.)
    for (const host of ['169.254.169.254', '10.0.0.1', '172.16.0.1', '192.168.0.1', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255']) {
      const answer = (await testConnection({ smtpHost: host, smtpPort: 587, smtpUser: null, smtpPassword: null })).json();
      expect(answer, host).toEqual({ ok: false, message: smtpFailureMessage('address_not_allowed', allowedPorts) });
    }
    // The answer never carries the resolver's or the socket's own words.
    expect(smtpFailureMessage('address_not_allowed', allowedPorts)).not.toMatch(/E[A-Z]{4,}|169\.254/);
  });

  it('saves an SMTP server only on an SMTP port and an allowed address', async () => {
    const before = await settingsUpdatedAt(t);
    const current = (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin.cookie } })).json<PlatformSettings>();
    const save = (changes: Partial<PlatformSettingsForm>) =>
      t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: { cookie: admin.cookie, origin: PUBLIC_URL }, payload: settingsFormOf(current, changes) });
    const port = await save({ smtpHost: 'smtp.exemplo.com.br', smtpPort: 5432 });
    expect(port.statusCode).toBe(400);
    expect(port.json().error.message).toBe(`Porta não permitida. Use uma porta de SMTP: ${allowedPorts.join(', ')}`);
    const metadata = await save({ smtpHost: '169.254.169.254', smtpPort: 587 });
    expect(metadata.statusCode).toBe(400);
    expect(metadata.json().error.message).toBe(s.smtpAddressNotAllowed);
    expect(await settingsUpdatedAt(t)).toBe(before);
  });

  it('sends every e-mail through the SMTP server saved in the settings, from the platform name and support address', async () => {
    const current = (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin.cookie } })).json<PlatformSettings>();
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: { cookie: admin.cookie, origin: PUBLIC_URL },
      payload: settingsFormOf(current, { platformName: 'Saúde Mais', smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' }),
    });
    expect(saved.statusCode).toBe(200);
    // The stored password is used when the test form leaves it empty, for the saved server and user only: with
    // anything else typed it is not sent.
    expect((await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: '' })).json().ok).toBe(true);
    const loginsBefore = smtp.logins.length;
    expect((await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'outro', smtpPassword: '' })).json().ok).toBe(false);
    expect(smtp.logins.slice(loginsBefore).map((login) => login.password)).not.toContain('senha-do-smtp');

    const patient = await createSignedInUser(t, null);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/request-password-reset',
      headers: { origin: PUBLIC_URL },
      payload: { email: patient.email, redirectTo: '/auth/redefinir-senha' },
    });
    expect(reset.statusCode).toBe(200);
    // E-mails go after the answer (issue 12, item 9).
    await settleWork(t);
    // Both the sign-up verification and the reset link went through the SMTP server.
    const toPatient = smtp.received.filter((message) => message.includes(patient.email));
    expect(toPatient).toHaveLength(2);
    const delivered = toPatient.find((message) => message.includes('redefinir-senha'));
    expect(delivered).toMatch(/^From: .*Mais.*<suporte@carteirinha\.com\.br>/m);
    const [recorded] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, patient.email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
    expect(recorded).toMatchObject({ transport: 'smtp', error: null });
  });
});

describe('Relatórios automáticos', () => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  const weeklyReports = () => t.db.select().from(emailOutbox).where(eq(emailOutbox.subject, 'Relatório semanal — Carteirinha'));

  it('sends the week in figures to the support address, and nothing while turned off', async () => {
    await createClinic(t.db, 'Clínica da Semana');
    // The Monday 8 am at least a week from now: the clinic made now is in the week before it.
    const monday = lastOccurrence(new Date(Date.now() + 7 * DAY_MS), WEEKLY_REPORT);
    expect(await t.app.notifier.sendWeeklyReport(monday)).toBe(true);
    const [report] = await weeklyReports();
    expect(report?.to).toBe('suporte@carteirinha.com.br');
    // Words agree with their counts (issue 13, item 14): never "1 clínicas" or "0 planos ativos".
    expect(report?.text).toMatch(/: 1 nova clínica e 1 novo usuário\. Ao todo: 1 clínica, 1 usuário e nenhum plano ativo\./);
    expect(report?.text).toContain('/admin/relatorios');

    await changeSettings(t, admin.cookie, { notifyAutomaticReports: false });
    expect(await t.app.notifier.sendWeeklyReport(new Date(monday.getTime() + 7 * DAY_MS))).toBe(false);
    expect(await weeklyReports()).toHaveLength(1);
    await changeSettings(t, admin.cookie, { notifyAutomaticReports: true });
  });

  it("sends each week's report once across two server processes, leaving updated_at alone", async () => {
    const before = (await weeklyReports()).length;
    const updatedAt = await settingsUpdatedAt(t);
    const monday = lastOccurrence(new Date(), WEEKLY_REPORT);
    const other = await secondProcess(t);
    try {
      expect([await runOccurrence(t.app, WEEKLY_REPORT_QUEUE, monday), await runOccurrence(other.app, WEEKLY_REPORT_QUEUE, monday)]).toEqual([true, false]);
      expect(await runOccurrence(t.app, WEEKLY_REPORT_QUEUE, monday)).toBe(false);
    } finally {
      await other.close();
    }
    expect(await weeklyReports()).toHaveLength(before + 1);
    expect(await settingsUpdatedAt(t)).toBe(updatedAt);
  });
});

describe('Pagamentos pendentes and Cancelamentos', () => {
  let t: TestApp;
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
  });
  afterAll(async () => t.close());

  const toSupport = (subjectStart: string) =>
    t.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, 'suporte@carteirinha.com.br'))
      .then((rows) => rows.filter((row) => row.subject.startsWith(subjectStart)));

  it('sends nothing while no clinic has an overdue charge', async () => {
    const paying = await createClinic(t.db, 'Clínica Em Dia');
    await createSubscriptionWithPayments(t, paying, [{ status: 'received', amountCents: 9990, dueDate: '2026-01-10' }]);
    const now = new Date();
    expect(await t.app.notifier.sendOverduePayments(lastOccurrence(now, OVERDUE_PAYMENTS_DIGEST), now)).toBe(false);
    expect(await toSupport('Pagamentos em atraso')).toHaveLength(0);
  });

  it('e-mails the support address the clinics with overdue charges once a day, across processes', async () => {
    const late = await createClinic(t.db, 'Clínica Atrasada');
    await createSubscriptionWithPayments(t, late, [
      { status: 'overdue', amountCents: 9990, dueDate: '2026-01-10' },
      { status: 'pending', amountCents: 9990, dueDate: '2026-02-10' },
    ]);
    const today = lastOccurrence(new Date(), OVERDUE_PAYMENTS_DIGEST);
    const updatedAt = await settingsUpdatedAt(t);
    // The day's occurrence is one job, whichever process (or this one restarted) enqueues it.
    expect(await runOccurrence(t.app, OVERDUE_DIGEST_QUEUE, today)).toBe(true);
    expect(await runOccurrence(t.app, OVERDUE_DIGEST_QUEUE, today)).toBe(false);
    const other = await secondProcess(t);
    try {
      expect(await runOccurrence(other.app, OVERDUE_DIGEST_QUEUE, today)).toBe(false);
    } finally {
      await other.close();
    }
    const [digest, ...others] = await toSupport('Pagamentos em atraso');
    expect(others).toHaveLength(0);
    expect(digest?.text).toContain('1 clínica(s) com cobranças em atraso: Clínica Atrasada (em atraso desde 10/01/2026).');
    expect(digest?.text).not.toContain('Clínica Em Dia');
    expect(digest?.text).toContain(`${PUBLIC_URL}/admin`);
    expect(await settingsUpdatedAt(t)).toBe(updatedAt);

    // The next day's goes out the next day.
    const tomorrow = new Date(today.getTime() + DAY_MS);
    expect(await t.app.notifier.sendOverduePayments(tomorrow, tomorrow)).toBe(true);
    expect(await toSupport('Pagamentos em atraso')).toHaveLength(2);
  });

  it('sends no overdue e-mail while Pagamentos pendentes is off', async () => {
    await changeSettings(t, admin.cookie, { notifyPendingPayments: false });
    const inAMonth = new Date(Date.now() + 30 * DAY_MS);
    expect(await t.app.notifier.sendOverduePayments(lastOccurrence(inAMonth, OVERDUE_PAYMENTS_DIGEST), inAMonth)).toBe(false);
    expect(await toSupport('Pagamentos em atraso')).toHaveLength(2);
  });

  it('tells the support address about a cancelled clinic only while Cancelamentos is on', async () => {
    await t.app.notifier.clinicCancelled({ name: 'Clínica Que Saiu' });
    expect(await toSupport('Clínica cancelada')).toHaveLength(0);

    await changeSettings(t, admin.cookie, { notifyCancellations: true });
    await t.app.notifier.clinicCancelled({ name: 'Clínica Que Saiu' });
    const [email] = await toSupport('Clínica cancelada');
    expect(email?.subject).toBe('Clínica cancelada: Clínica Que Saiu');
    expect(email?.text).toContain('A clínica Clínica Que Saiu foi cancelada na plataforma.');
    expect(email?.text).toContain(`${PUBLIC_URL}/admin/clinicas`);
  });
});

describe('Pagamentos pendentes through the SMTP server of Configurações', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    smtp = await startSmtpServer('mailer', 'senha-do-smtp');
    t = await createTestApp({ SMTP_ALLOWED_PORTS: String(smtp.port) });
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' });
  });
  afterAll(async () => {
    await smtp.close();
    await t.close();
  });

  it('delivers the daily e-mail, and a failed delivery is tried again by a later tick', async () => {
    const late = await createClinic(t.db, 'Clínica Devedora');
    await createSubscriptionWithPayments(t, late, [{ status: 'overdue', amountCents: 5000, dueDate: '2026-03-01' }]);
    const later = new Date(Date.now() + 7 * DAY_MS);

    const port = smtp.port;
    await smtp.close();
    const due = lastOccurrence(later, OVERDUE_PAYMENTS_DIGEST);
    await expect(t.app.notifier.sendOverduePayments(due, later)).rejects.toThrow();
    smtp = await startSmtpServer('mailer', 'senha-do-smtp', port);
    expect(await t.app.notifier.sendOverduePayments(due, later)).toBe(true);
    const delivered = smtp.received.filter((message) => message.includes('Subject: =?UTF-8?Q?Pagamentos_em_atraso'));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatch(/^To: suporte@carteirinha\.com\.br$/m);
    // Quoted-printable: the clinic's name as the message carries it.
    expect(delivered[0]).toContain('Devedora (em atraso desde 01/03/2026).');
  });
});
