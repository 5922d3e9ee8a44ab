import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { count, desc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import type { PlatformSettings, PlatformSettingsForm } from '@carteirinha/shared/contracts/settings';
import { auditLog, emailOutbox, platformSettings, users } from '../../db/schema.ts';
import { PGLITE_EXTENSIONS } from '../../db/client.ts';
import { runDailyBackupIfDue } from './backups.ts';
import { changeSettings, createClinic, createSignedInUser, createTestApp, settingsFormOf, TEST_PASSWORD, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';

const s = messages.settings;

const execFileAsync = promisify(execFile);

/** Restores a backup file into a fresh database of the same kind and counts its users. */
async function countUsersInBackup(t: TestApp, file: string): Promise<number> {
  if (t.database.kind === 'pglite') {
    const restored = await PGlite.create({ loadDataDir: new Blob([await fs.readFile(file)]), extensions: PGLITE_EXTENSIONS });
    try {
      const result = await restored.query<{ total: number }>('SELECT count(*)::int AS total FROM users');
      return result.rows[0]?.total ?? -1;
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
    const result = await restored.query<{ total: number }>('SELECT count(*)::int AS total FROM users');
    await restored.end();
    return result.rows[0]?.total ?? -1;
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** A real SMTP server on loopback that accepts one user and keeps what it receives. */
async function startSmtpServer(user: string, password: string) {
  const received: string[] = [];
  const logins: { user: string | null | undefined; password: string | null | undefined }[] = [];
  const server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
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
      phone: '(11) 3333-4444',
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
    const stat = await fs.stat(path.join(t.dataDir, 'backups', backup.fileName));
    expect(stat.size).toBe(backup.sizeBytes);
    expect(stat.size).toBeGreaterThan(1000);
    expect((await getSettings()).lastBackup?.fileName).toBe(backup.fileName);

    // The file restores to the same data (security checklist 37).
    const [original] = await t.db.select({ total: count() }).from(users);
    expect(await countUsersInBackup(t, path.join(t.dataDir, 'backups', backup.fileName))).toBe(original?.total);
  });

  it('applies the retention: a backup older than the retention days is deleted by the next one', async () => {
    const folder = path.join(t.dataDir, 'backups');
    const extension = t.database.backupExtension;
    const old = path.join(folder, `carteirinha-2020-01-01T03-00-00-000Z${extension}`);
    await fs.writeFile(old, 'old');
    const fortyDaysAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    await fs.utimes(old, fortyDaysAgo, fortyDaysAgo);
    const recent = path.join(folder, `carteirinha-2020-01-02T03-00-00-000Z${extension}`);
    await fs.writeFile(recent, 'recent');
    const fiveDaysAgo = new Date(Date.now() - 5 * 24 * 60 * 60 * 1000);
    await fs.utimes(recent, fiveDaysAgo, fiveDaysAgo);

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
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings)).toBeNull();

    await changeSettings(t, admin.cookie, { backupDailyEnabled: true });
    const made = await runDailyBackupIfDue(t.app.backups, t.app.settings);
    expect(made?.fileName).toMatch(/^carteirinha-.*/);
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings)).toBeNull();
    // The next 3 am makes the next one.
    const tomorrow = new Date(Date.now() + 24 * 60 * 60 * 1000);
    expect(await runDailyBackupIfDue(t.app.backups, t.app.settings, tomorrow)).not.toBeNull();
    expect(await t.app.backups.list()).toHaveLength(2);
  });
});

describe('SMTP from Configurações', () => {
  let t: TestApp;
  let admin: { cookie: string };
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
    smtp = await startSmtpServer('mailer', 'senha-do-smtp');
  });
  afterAll(async () => {
    await smtp.close();
    await t.close();
  });

  const testConnection = (payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/admin/settings/smtp-test', headers: { cookie: admin.cookie, origin: PUBLIC_URL }, payload });

  it('Testar Conexão really connects: right credentials pass, wrong ones and a closed port fail with the reason', async () => {
    const ok = await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'senha-do-smtp' });
    expect(ok.json()).toEqual({ ok: true, message: s.smtpTestOk });

    const wrong = (await testConnection({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'mailer', smtpPassword: 'errada' })).json();
    expect(wrong.ok).toBe(false);
    expect(wrong.message).toMatch(/^Falha na conexão SMTP: .*Invalid/);

    const closed = (await testConnection({ smtpHost: '127.0.0.1', smtpPort: 1, smtpUser: null, smtpPassword: null })).json();
    expect(closed.ok).toBe(false);
    expect(closed.message).toMatch(/ECONNREFUSED/);

    const noHost = await testConnection({ smtpHost: '', smtpPort: 587 });
    expect(noHost.statusCode).toBe(400);
    expect(noHost.json().error.message).toBe(s.smtpHostRequired);
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

  it('sends the week in figures to the support address once per week, and not when turned off', async () => {
    await createClinic(t.db, 'Clínica da Semana');
    // A week from now at least one Monday 8 am has passed: that week is due.
    const monday = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
    expect(await t.app.notifier.sendWeeklyReportIfDue(monday)).toBe(true);
    expect(await t.app.notifier.sendWeeklyReportIfDue(monday)).toBe(false);
    const [report] = await weeklyReports();
    expect(report?.to).toBe('suporte@carteirinha.com.br');
    expect(report?.text).toMatch(/Ao todo: 1 clínicas, 1 usuários e 0 planos ativos\./);
    expect(report?.text).toContain('/admin/relatorios');

    await changeSettings(t, admin.cookie, { notifyAutomaticReports: false });
    const weekAfter = new Date(monday.getTime() + 7 * 24 * 60 * 60 * 1000);
    expect(await t.app.notifier.sendWeeklyReportIfDue(weekAfter)).toBe(false);
    expect(await weeklyReports()).toHaveLength(1);
  });
});
