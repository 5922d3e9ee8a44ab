import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pushMessageSchema, type PushDevice, type PushMessage, type PushState } from '@carteirinha/shared/contracts/push';
import { messages } from '@carteirinha/shared/messages';
import { clinics, emailOutbox, jobs, payments, pushSubscriptions, pushVapidKeys, users } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, TEST_AUTH_SECRET, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, type Programme } from '../../../test/checkout-kit.ts';
import { createTestBrowser, startPushServiceDouble, verifiedVapidClaims, type PushServiceDouble, type TestBrowser } from '../../../test/push-service-double.ts';
import { createCardHolder } from '../cards/card-fixtures.ts';
import { markOverdueCharges, noticeEndingSubscriptions, sendPaymentReminders, type DelinquencyDeps } from '../payments/delinquency.ts';
import { DELETION_CONFIRMATION } from '@carteirinha/shared/contracts/my-data';
import { createSecretBox } from '../../lib/secret-box.ts';
import { PUSH_DELIVERY_QUEUE } from './deliveries.ts';
import { createVapidKeyStore } from './vapid.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
let clock = new Date();
let t: TestApp;
let double: PushServiceDouble;
let programme: Programme;
let clinicName: string;
let clinicSlug: string;
let deps: DelinquencyDeps;
const log = { info: () => undefined, warn: () => undefined };

beforeAll(async () => {
  double = await startPushServiceDouble();
  t = await createTestApp({ PUSH_LOOPBACK_ENDPOINTS: 'on', SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock });
  deps = { jobs: t.app.jobs, log };
  programme = await createProgramme(t, 'Clínica Aviso Certo');
  const [clinic] = await t.db.select({ name: clinics.name, slug: clinics.slug }).from(clinics).where(eq(clinics.id, programme.clinicId));
  clinicName = clinic?.name ?? '';
  clinicSlug = clinic?.slug ?? '';
});
afterAll(async () => {
  await t.close();
  await double.close();
});
beforeEach(() => {
  clock = new Date(clock.getTime() + MINUTE_MS);
});

const api = (cookie: string) => ({
  state: () => t.app.inject({ method: 'GET', url: '/api/patient/push', headers: { cookie } }),
  subscribe: (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/patient/push/subscriptions', headers: { cookie, origin: PUBLIC_URL, 'user-agent': 'Chromium de teste' }, payload }),
  unsubscribe: (id: string) => t.app.inject({ method: 'DELETE', url: `/api/patient/push/subscriptions/${id}`, headers: { cookie, origin: PUBLIC_URL } }),
});

async function subscribeBrowser(cookie: string, browser: TestBrowser = createTestBrowser(double)): Promise<{ browser: TestBrowser; device: PushDevice }> {
  const response = await api(cookie).subscribe(browser.subscription);
  expect(response.statusCode, response.body).toBe(201);
  return { browser, device: response.json<PushDevice>() };
}

async function storedPublicKey(): Promise<string> {
  const [row] = await t.db.select().from(pushVapidKeys);
  if (!row) throw new Error('no VAPID keys');
  return row.publicKey;
}

/** What one browser was sent (the push service took it), decrypted as the browser would. */
function messagesTo(browser: TestBrowser): PushMessage[] {
  return double
    .requestsTo(browser.subscription.endpoint)
    .filter((request) => request.status === 201)
    .map((request) => pushMessageSchema.parse(JSON.parse(browser.decrypt(request.body))));
}

const NOTICE_SUBJECTS = new Set<string>(Object.values(messages.paymentNotices));

/** The notices e-mailed to the patient (the account's own e-mails, such as the address confirmation, left out). */
async function emailsTo(userId: string): Promise<string[]> {
  const [user] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  const rows = await t.db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(eq(emailOutbox.to, user?.email ?? ''));
  return rows.map((row) => row.subject).filter((subject) => NOTICE_SUBJECTS.has(subject));
}

async function subscriptionRowsOf(userId: string) {
  return t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
}

/** A patient who subscribed by Pix through the checkout: their charge, open. */
async function subscribedPatient() {
  const patient = await createPatient(t, programme);
  const response = await callAs(t, patient.cookie)('POST', '/api/patient/subscriptions', checkoutBody(programme), newKey());
  expect(response.statusCode, response.body).toBe(201);
  await t.app.background.settled();
  return { ...patient, paymentId: response.json<{ payment: { id: string } }>().payment.id, subscriptionId: response.json<{ subscription: { id: string } }>().subscription.id };
}

async function simulatePayment(cookie: string, paymentId: string) {
  const response = await callAs(t, cookie)('POST', `/api/patient/payments/${paymentId}/simulate`);
  expect(response.statusCode, response.body).toBe(200);
  await t.app.background.settled();
}

describe('the VAPID keys and the state', () => {
  it('makes the key pair at the first start, keeps the private key sealed, and serves the public key', async () => {
    const [row] = await t.db.select().from(pushVapidKeys);
    expect(row?.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    // Sealed with the auth secret (lib/secret-box.ts), never the 32-byte key itself.
    expect(row?.privateKeySealed).toMatch(/^v1\./);
    const patient = await createPatient(t, programme);
    const response = await api(patient.cookie).state();
    expect(response.statusCode).toBe(200);
    expect(response.json<PushState>()).toEqual({ publicKey: row?.publicKey, devices: [] });
  });

  it('keeps one pair for every process: another server on the database reads the same, and does not make its own', async () => {
    const stored = await storedPublicKey();
    const others = [createVapidKeyStore(t.db, createSecretBox(TEST_AUTH_SECRET, 'push-vapid')), createVapidKeyStore(t.db, createSecretBox(TEST_AUTH_SECRET, 'push-vapid'))];
    const keys = await Promise.all(others.map((store) => store.get()));
    expect(keys.map((pair) => pair.publicKey)).toEqual([stored, stored]);
    expect(keys[0]?.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await t.db.select().from(pushVapidKeys)).toHaveLength(1);
  });

  it('answers only patients', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/patient/push' })).statusCode).toBe(401);
    const staff = await createSignedInUser(t, 'clinic_staff', programme.clinicId);
    expect((await api(staff.cookie).state()).statusCode).toBe(403);
  });
});

describe('subscribe and unsubscribe', () => {
  it('stores the browser, lists it, and removes it', async () => {
    const patient = await createPatient(t, programme);
    const { browser, device } = await subscribeBrowser(patient.cookie);
    expect(device).toMatchObject({ endpoint: browser.subscription.endpoint, userAgent: 'Chromium de teste', lastSuccessAt: null });
    const [row] = await subscriptionRowsOf(patient.userId);
    expect(row).toMatchObject({ clinicId: programme.clinicId, endpoint: browser.subscription.endpoint, p256dh: browser.subscription.keys.p256dh, auth: browser.subscription.keys.auth });
    expect((await api(patient.cookie).state()).json<PushState>().devices).toEqual([device]);

    // The same browser again (the switch turned on twice): still one row.
    await subscribeBrowser(patient.cookie, browser);
    expect(await subscriptionRowsOf(patient.userId)).toHaveLength(1);

    expect((await api(patient.cookie).unsubscribe(device.id)).statusCode).toBe(204);
    expect(await subscriptionRowsOf(patient.userId)).toEqual([]);
    expect((await api(patient.cookie).unsubscribe(device.id)).json()).toEqual({ error: { code: 'NOT_FOUND', message: messages.push.notFound } });
  });

  it('refuses bad input with a pt-BR message and writes nothing', async () => {
    const patient = await createPatient(t, programme);
    const good = createTestBrowser(double).subscription;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, endpoint: 'não é endereço' }, messages.push.endpointInvalid],
      [{ ...good, endpoint: 'https://intranet.exemplo.com.br/push/1' }, messages.push.endpointInvalid],
      [{ ...good, endpoint: 'http://10.0.0.5/push/1' }, messages.push.endpointInvalid],
      [{ ...good, endpoint: 'https://fcm.googleapis.com:8443/fcm/send/1' }, messages.push.endpointInvalid],
      [{ ...good, endpoint: 'ftp://fcm.googleapis.com/fcm/send/1' }, messages.push.endpointInvalid],
      [{ ...good, keys: { p256dh: 'curta', auth: good.keys.auth } }, messages.push.keyInvalid],
      [{ ...good, keys: { p256dh: good.keys.p256dh, auth: `${good.keys.auth}AA` } }, messages.push.keyInvalid],
      [{ endpoint: good.endpoint }, messages.push.keyInvalid],
    ];
    for (const [payload, message] of cases) {
      const response = await api(patient.cookie).subscribe(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.body).toContain(message);
    }
    expect(await subscriptionRowsOf(patient.userId)).toEqual([]);
  });

  it("never shows or removes another patient's browser, of this clinic or another", async () => {
    const owner = await createPatient(t, programme);
    const { browser, device } = await subscribeBrowser(owner.cookie);
    const neighbour = await createPatient(t, programme);
    const other = await createClinic(t.db, 'Clínica Vizinha');
    const stranger = await createSignedInUser(t, 'patient', other.clinicId);
    for (const intruder of [neighbour, stranger]) {
      expect((await api(intruder.cookie).state()).json<PushState>().devices).toEqual([]);
      expect((await api(intruder.cookie).unsubscribe(device.id)).statusCode).toBe(404);
      // The address alone (copied) takes nothing: other keys are refused.
      const forged = createTestBrowser(double).subscription;
      const taken = await api(intruder.cookie).subscribe({ ...forged, endpoint: browser.subscription.endpoint });
      expect(taken.statusCode).toBe(409);
      expect(taken.json()).toEqual({ error: { code: 'CONFLICT', message: messages.push.endpointTaken } });
    }
    expect(await subscriptionRowsOf(owner.userId)).toEqual([expect.objectContaining({ id: device.id, p256dh: browser.subscription.keys.p256dh })]);
  });

  it("forgets the patient's browsers when the account is deleted (ADR 027)", async () => {
    const patient = await createPatient(t, programme);
    await subscribeBrowser(patient.cookie);
    const deleted = await t.app.inject({ method: 'POST', url: '/api/patient/my-data/deletion', headers: { cookie: patient.cookie, origin: PUBLIC_URL }, payload: { confirmation: DELETION_CONFIRMATION } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await subscriptionRowsOf(patient.userId)).toEqual([]);
  });

  it('moves the same browser subscription to the account now signed in on it', async () => {
    const first = await createPatient(t, programme);
    const { browser } = await subscribeBrowser(first.cookie);
    const second = await createPatient(t, programme);
    await subscribeBrowser(second.cookie, browser);
    expect(await subscriptionRowsOf(first.userId)).toEqual([]);
    expect(await subscriptionRowsOf(second.userId)).toHaveLength(1);
  });
});

describe('a notice goes by push, or by e-mail when push is off', () => {
  it('delivers the payment confirmation encrypted to the browser, signed with the stored VAPID key, and sends no e-mail', async () => {
    const patient = await subscribedPatient();
    const { browser } = await subscribeBrowser(patient.cookie);
    await simulatePayment(patient.cookie, patient.paymentId);
    await t.app.jobs.drain();

    const requests = double.requestsTo(browser.subscription.endpoint);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    if (!request) throw new Error('nothing delivered');
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(request.headers.ttl)).toBeGreaterThan(0);
    const claims = verifiedVapidClaims(request, await storedPublicKey());
    expect(claims.aud).toBe(new URL(browser.subscription.endpoint).origin);
    expect(claims.sub).toMatch(/^mailto:/);
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());

    const [message] = messagesTo(browser);
    // The clinic's name and host, never the platform's.
    expect(message).toMatchObject({ title: clinicName, tag: 'confirmed' });
    expect(message?.body).toContain('confirmado');
    expect(message?.url).toBe(`http://${clinicSlug}.localhost:3999/paciente/assinatura`);
    expect(await emailsTo(patient.userId)).not.toContain(messages.paymentNotices.confirmedSubject);
    const [row] = await subscriptionRowsOf(patient.userId);
    expect(row?.lastSuccessAt?.getTime()).toBe(clock.getTime());
  });

  it('sends the e-mail instead when the patient has no browser for it', async () => {
    const patient = await subscribedPatient();
    const before = double.requests.length;
    await simulatePayment(patient.cookie, patient.paymentId);
    await t.app.jobs.drain();
    expect(await emailsTo(patient.userId)).toEqual([messages.paymentNotices.confirmedSubject]);
    expect(double.requests.length).toBe(before);
  });

  it('tells each event once by push: due soon, due today, overdue', async () => {
    const patient = await subscribedPatient();
    const { browser } = await subscribeBrowser(patient.cookie);
    // The reminders ask for a charge created before its reminder's day: the checkout's charge is made due later.
    const dueDate = new Date(clock.getTime() + 5 * DAY_MS).toISOString().slice(0, 10);
    await t.db.update(payments).set({ dueDate }).where(eq(payments.id, patient.paymentId));
    const noon = (day: string, offsetDays: number) => new Date(new Date(`${day}T15:00:00Z`).getTime() + offsetDays * DAY_MS);

    for (const at of [noon(dueDate, -2), noon(dueDate, -2)]) {
      await sendPaymentReminders(t.db, deps, at);
      await t.app.jobs.drain();
    }
    for (const at of [noon(dueDate, 0), noon(dueDate, 0)]) {
      await sendPaymentReminders(t.db, deps, at);
      await t.app.jobs.drain();
    }
    for (const at of [noon(dueDate, 1), noon(dueDate, 1)]) {
      await markOverdueCharges(t.db, deps, at);
      await t.app.jobs.drain();
    }
    expect(messagesTo(browser).map((message) => message.tag)).toEqual(['reminderBefore', 'reminderDue', 'overdue']);
    expect(messagesTo(browser).every((message) => message.title === clinicName)).toBe(true);
    expect(await emailsTo(patient.userId)).toEqual([]);
  });

  it("tells the holder of a visit registered with their dependent's card, once, and by e-mail when push is off", async () => {
    const holder = await createCardHolder(t, programme.clinicId, { maxMembers: 2, dependents: 1, expiresAt: new Date(clock.getTime() + 30 * DAY_MS) });
    const { browser, device } = await subscribeBrowser(holder.cookie);
    const staff = await createSignedInUser(t, 'clinic_staff', programme.clinicId);
    const dependentCard = holder.cards.find((card) => card.dependentId !== null);
    const visit = { cardId: dependentCard?.id, serviceName: 'Consulta clínica', category: 'consulta', priceCents: 20000 };
    const post = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/api/clinic/visits', headers: { cookie: staff.cookie, origin: PUBLIC_URL }, payload });
    expect((await post(visit)).statusCode).toBe(201);
    await t.app.jobs.drain();
    const [message] = messagesTo(browser);
    expect(message).toMatchObject({ title: clinicName, tag: 'visitRegistered', url: `http://${clinicSlug}.localhost:3999/paciente/historico` });
    expect(message?.body).toContain('Dependente 1');
    expect(message?.body).toContain('Consulta clínica');
    expect(message?.body).toContain('R$ 140,00');

    // Booked ahead: told when it happens, not when booked.
    const booked = await post({ ...visit, scheduledFor: new Date(clock.getTime() + DAY_MS).toISOString() });
    expect(booked.statusCode, booked.body).toBe(201);
    await t.app.jobs.drain();
    expect(messagesTo(browser)).toHaveLength(1);
    const started = await t.app.inject({ method: 'PATCH', url: `/api/clinic/visits/${booked.json<{ id: string }>().id}/status`, headers: { cookie: staff.cookie, origin: PUBLIC_URL }, payload: { status: 'em_andamento' } });
    expect(started.statusCode, started.body).toBe(200);
    await t.app.jobs.drain();
    expect(messagesTo(browser)).toHaveLength(2);
    const finished = await t.app.inject({ method: 'PATCH', url: `/api/clinic/visits/${booked.json<{ id: string }>().id}/status`, headers: { cookie: staff.cookie, origin: PUBLIC_URL }, payload: { status: 'concluido' } });
    expect(finished.statusCode, finished.body).toBe(200);
    await t.app.jobs.drain();
    expect(messagesTo(browser)).toHaveLength(2);

    // Notifications off on the only browser: the next visit is an e-mail.
    expect((await api(holder.cookie).unsubscribe(device.id)).statusCode).toBe(204);
    expect((await post(visit)).statusCode).toBe(201);
    await t.app.jobs.drain();
    expect(messagesTo(browser)).toHaveLength(2);
    expect(await emailsTo(holder.userId)).toEqual([messages.paymentNotices.visitRegisteredSubject]);
  });

  it('tells once that a subscription that will not renew ends in a few days', async () => {
    const endsAt = new Date(clock.getTime() + 10 * DAY_MS);
    const holder = await createCardHolder(t, programme.clinicId, { expiresAt: endsAt, canceledAt: clock });
    const { browser } = await subscribeBrowser(holder.cookie);
    expect(await noticeEndingSubscriptions(t.db, deps, new Date(endsAt.getTime() - 4 * DAY_MS))).toBe(0);
    const inTime = new Date(endsAt.getTime() - 2 * DAY_MS);
    expect(await noticeEndingSubscriptions(t.db, deps, inTime)).toBeGreaterThanOrEqual(1);
    expect(await noticeEndingSubscriptions(t.db, deps, new Date(inTime.getTime() + DAY_MS))).toBe(0);
    await t.app.jobs.drain();
    const told = messagesTo(browser);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: clinicName, tag: 'subscriptionEnding' });
    expect(told[0]?.body).toContain('não será renovada');
  });
});

describe('dead and failing browsers', () => {
  it('prunes a browser the push service answers 410 for, and e-mails the notice when it was the last', async () => {
    const patient = await subscribedPatient();
    const { browser } = await subscribeBrowser(patient.cookie);
    double.answer(browser.subscription.endpoint, 410);
    await simulatePayment(patient.cookie, patient.paymentId);
    await t.app.jobs.drain();
    expect(double.requestsTo(browser.subscription.endpoint)).toHaveLength(1);
    expect(await subscriptionRowsOf(patient.userId)).toEqual([]);
    expect(await emailsTo(patient.userId)).toEqual([messages.paymentNotices.confirmedSubject]);
  });

  it('prunes a 404 and keeps telling the browsers that are alive, without an e-mail', async () => {
    const patient = await subscribedPatient();
    const dead = await subscribeBrowser(patient.cookie);
    const alive = await subscribeBrowser(patient.cookie);
    double.answer(dead.browser.subscription.endpoint, 404);
    await simulatePayment(patient.cookie, patient.paymentId);
    await t.app.jobs.drain();
    expect((await subscriptionRowsOf(patient.userId)).map((row) => row.id)).toEqual([alive.device.id]);
    expect(messagesTo(alive.browser).map((message) => message.tag)).toEqual(['confirmed']);
    expect(await emailsTo(patient.userId)).toEqual([]);
  });

  it('retries a browser whose push service failed, and never sends twice to one that had it', async () => {
    const patient = await subscribedPatient();
    const failing = await subscribeBrowser(patient.cookie);
    const fine = await subscribeBrowser(patient.cookie);
    double.answer(failing.browser.subscription.endpoint, 503);
    await simulatePayment(patient.cookie, patient.paymentId);
    await t.app.jobs.drain();
    expect(double.requestsTo(failing.browser.subscription.endpoint)).toHaveLength(1);
    const [pending] = await t.db
      .select({ attempts: jobs.attempts, lastError: jobs.lastError })
      .from(jobs)
      .where(and(eq(jobs.queue, PUSH_DELIVERY_QUEUE), eq(jobs.singletonKey, `${(await noticeJobIdOf(patient.userId)) ?? ''}:${failing.device.id}`)));
    expect(pending?.lastError).toContain('503');

    clock = new Date(clock.getTime() + 2 * MINUTE_MS);
    await t.app.jobs.drain();
    expect(messagesTo(failing.browser).map((message) => message.tag)).toEqual(['confirmed']);
    expect(double.requestsTo(failing.browser.subscription.endpoint)).toHaveLength(2);
    expect(messagesTo(fine.browser).map((message) => message.tag)).toEqual(['confirmed']);
    expect(await subscriptionRowsOf(patient.userId)).toHaveLength(2);
    expect(await emailsTo(patient.userId)).toEqual([]);
  });
});

/** The id of the patient's payment-confirmed notice job (the deliveries are keyed by it). */
async function noticeJobIdOf(userId: string): Promise<string | null> {
  const rows = await t.db.select({ id: jobs.id, payload: jobs.payload }).from(jobs).where(eq(jobs.queue, 'patient-notices'));
  const found = rows.find((row) => JSON.stringify(row.payload).includes(userId));
  return found?.id ?? null;
}
