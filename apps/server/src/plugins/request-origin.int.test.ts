import Fastify from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { clinics } from '../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, signUp, uniqueEmail, type TestApp } from '../../test/helpers.ts';
import { registerErrorHandler } from './error-handler.ts';
import { registerRequestOrigin } from './request-origin.ts';

const EVIL = 'https://evil.example';
const crossSite = { code: 'CROSS_SITE_REFUSED', message: messages.errors.CROSS_SITE_REFUSED };
const notJson = { code: 'UNSUPPORTED_MEDIA_TYPE', message: messages.errors.UNSUPPORTED_MEDIA_TYPE };

describe('writes from another site (the session cookie goes along with any page\'s request)', () => {
  let t: TestApp;
  let admin: { cookie: string };
  let clinicId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t, 'admin');
    clinicId = (await createClinic(t.db, 'Clínica em Trial')).clinicId;
    await t.db.update(clinics).set({ status: 'trial', trialEndsAt: new Date(Date.now() + 86_400_000), approvedAt: null }).where(eq(clinics.id, clinicId));
  });
  afterAll(async () => t.close());

  /** A POST as a page would make it, with the admin's cookie. */
  const post = (url: string, headers: Record<string, string>, payload?: string) =>
    t.app.inject({ method: 'POST', url, headers: { cookie: admin.cookie, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const backupCount = async () => (await t.app.backups.list()).length;
  const clinicState = async () => (await t.db.select({ status: clinics.status, approvedAt: clinics.approvedAt }).from(clinics).where(eq(clinics.id, clinicId)))[0];

  it('refuses a text/plain form post from https://evil.example to Fazer Backup and Aprovar, and changes nothing', async () => {
    const backupsBefore = await backupCount();
    const clinicBefore = await clinicState();
    const simple = { origin: EVIL, 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' };
    for (const url of ['/api/admin/backups', `/api/admin/clinics/${clinicId}/approve`]) {
      const refused = await post(url, simple, 'x=1');
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: crossSite });
      // An older browser sends no Sec-Fetch-Site: the Origin alone refuses it.
      expect((await post(url, { origin: EVIL, 'content-type': 'text/plain' }, 'x=1')).json()).toEqual({ error: crossSite });
      // A browser that sends no Origin on this request still says it is cross-site.
      expect((await post(url, { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, '{}')).statusCode).toBe(403);
      // Even as JSON, with no body, or as another clinic's site.
      expect((await post(url, { origin: EVIL, 'content-type': 'application/json' }, '{}')).statusCode).toBe(403);
      expect((await post(url, { origin: EVIL })).statusCode).toBe(403);
      expect((await post(url, { origin: 'http://outra-clinica.localhost' })).statusCode).toBe(403);
      expect((await post(url, { origin: 'null' })).statusCode).toBe(403);
    }
    expect(await backupCount()).toBe(backupsBefore);
    expect(await clinicState()).toEqual(clinicBefore);
  });

  it('refuses a body that is not JSON from our own page too (415, pt-BR)', async () => {
    const backupsBefore = await backupCount();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const refused = await post('/api/admin/backups', { origin: PUBLIC_URL, 'content-type': type }, 'x=1');
      expect(refused.statusCode).toBe(415);
      expect(refused.json()).toEqual({ error: notJson });
    }
    // A body with no type at all is not JSON either.
    expect((await post(`/api/admin/clinics/${clinicId}/approve`, {}, 'x=1')).statusCode).toBe(415);
    expect(await backupCount()).toBe(backupsBefore);
    expect((await clinicState())?.approvedAt).toBeNull();
  });

  it('accepts the same writes from the platform page: JSON, or no body at all', async () => {
    const backupsBefore = await backupCount();
    const json = await post('/api/admin/backups', { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json; charset=utf-8' }, '{}');
    expect(json.statusCode).toBe(201);
    // The web client's empty POST: no body, no content type.
    const empty = await post('/api/admin/backups', { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' });
    expect(empty.statusCode).toBe(201);
    expect(await backupCount()).toBe(backupsBefore + 2);

    const approved = await post(`/api/admin/clinics/${clinicId}/approve`, { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, '{}');
    expect(approved.statusCode).toBe(200);
    expect((await clinicState())?.approvedAt).not.toBeNull();
  });

  it('takes a request\'s own host as its origin (each clinic\'s site), and a call from no browser at all', async () => {
    const own = await createClinic(t.db, 'Clínica Própria');
    const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, own.clinicId));
    const host = `${clinic?.slug}.localhost`;
    const signUpOn = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { host, origin, 'sec-fetch-site': 'same-origin' },
        payload: { email: uniqueEmail('paciente'), password: 'senha-forte-123', name: 'Paciente' },
      });
    expect((await signUpOn(`http://${host}`)).statusCode).toBe(200);
    expect((await signUpOn('http://outra.localhost')).statusCode).toBe(403);
    // Server to server (no Origin, no Sec-Fetch-Site): allowed, the cookie it sends is its own.
    expect((await signUp(t.app, { email: uniqueEmail() })).statusCode).toBe(200);
    await t.db.update(clinics).set({ status: 'trial', approvedAt: null }).where(eq(clinics.id, own.clinicId));
    const approved = await t.app.inject({ method: 'POST', url: `/api/admin/clinics/${own.clinicId}/approve`, headers: { cookie: admin.cookie } });
    expect(approved.statusCode).toBe(200);
  });

  it('leaves reads alone', async () => {
    const read = await t.app.inject({ method: 'GET', url: '/api/admin/clinics', headers: { cookie: admin.cookie, origin: EVIL, 'sec-fetch-site': 'cross-site' } });
    expect(read.statusCode).toBe(200);
  });
});

describe('routes with their own rules (uploads, webhooks)', () => {
  const app = Fastify();
  beforeAll(async () => {
    registerErrorHandler(app);
    registerRequestOrigin(app, { publicUrl: PUBLIC_URL });
    app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, 'file'));
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post('/api/upload', { schema: { consumes: ['multipart/form-data'] } }, async () => ({ ok: true }));
    app.post('/api/webhooks/provider', { config: { crossOrigin: 'webhook' } }, async () => ({ ok: true }));
    await app.ready();
  });
  afterAll(async () => app.close());

  it('an upload route takes multipart only', async () => {
    const multipart = await app.inject({ method: 'POST', url: '/api/upload', headers: { origin: PUBLIC_URL, 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' });
    expect(multipart.statusCode).toBe(200);
    const json = await app.inject({ method: 'POST', url: '/api/upload', headers: { origin: PUBLIC_URL, 'content-type': 'application/json' }, payload: '{}' });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toBe(messages.tenancy.invalidImage);
  });

  it('a webhook route takes a provider\'s post from anywhere, in its own format', async () => {
    const notice = await app.inject({
      method: 'POST',
      url: '/api/webhooks/provider',
      headers: { origin: 'https://pagamentos.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'event=PAYMENT_RECEIVED',
    });
    expect(notice.statusCode).toBe(200);
  });
});
