import { desc, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { emailOutbox } from '../../db/schema.ts';
import { OUTBOX_RETENTION_MS } from '../../lib/mailer.ts';
import { PUBLIC_URL, createSignedInUser, createTestApp, type TestApp, settleWork } from '../../../test/helpers.ts';

/**
 * Issue 12, item 18: the admin outbox must not keep live links (a reset link signs in) once SMTP delivered them, and
 * keeps nothing past its retention. Without SMTP (development) the outbox is how links are followed: readable there.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

function requestReset(t: TestApp, email: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: { origin: PUBLIC_URL }, payload: { email, redirectTo: '/auth/redefinir-senha' } });
}

async function lastMailTo(t: TestApp, email: string) {
  await settleWork(t);
  const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

const TOKEN_LINK = /redefinir-senha\?token=([\w-]+)/;

describe('with an SMTP server', () => {
  const received: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push(data);
        callback();
      });
    },
  });
  let t: TestApp;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const address = smtp.server.address();
    if (address === null || typeof address === 'string') throw new Error('the SMTP double is not listening on a port');
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${address.port}` });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('delivers the live link and keeps only a redacted copy', async () => {
    const person = await createSignedInUser(t, null);
    expect((await requestReset(t, person.email)).statusCode).toBe(200);
    const mail = await lastMailTo(t, person.email);
    expect(mail).toMatchObject({ transport: 'smtp', subject: messages.email.resetSubject, error: null });
    expect(mail.sentAt).not.toBeNull();
    // The message that went out carried the link...
    const delivered = received.find((data) => data.includes(person.email) && TOKEN_LINK.test(data.replace(/=\r\n/g, '')));
    expect(delivered).toBeDefined();
    // ...the copy an admin can read does not.
    expect(mail.text).not.toMatch(/https?:\/\//);
    expect(mail.html).not.toMatch(/https?:\/\//);
    expect(mail.text).toContain(messages.email.linkRedacted);
  });
});

describe('the development outbox (no SMTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps the link readable, so a developer can follow it', async () => {
    const person = await createSignedInUser(t, null);
    await requestReset(t, person.email);
    const mail = await lastMailTo(t, person.email);
    expect(mail.transport).toBe('outbox');
    expect(mail.text).toMatch(TOKEN_LINK);
  });

  it(`forgets e-mails older than ${OUTBOX_RETENTION_MS / DAY_MS} days when the next one is written`, async () => {
    const now = Date.now();
    const old = { subject: 'Antigo', html: '<p>x</p>', text: 'x', transport: 'outbox' as const };
    await t.db.insert(emailOutbox).values([
      { ...old, to: 'expirado@teste.dev', createdAt: new Date(now - OUTBOX_RETENTION_MS - DAY_MS) },
      { ...old, to: 'recente@teste.dev', createdAt: new Date(now - OUTBOX_RETENTION_MS + DAY_MS) },
    ]);
    const person = await createSignedInUser(t, null);
    await requestReset(t, person.email);
    await settleWork(t);
    expect(await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'expirado@teste.dev'))).toEqual([]);
    expect(await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, 'recente@teste.dev'))).toHaveLength(1);
  });
});
