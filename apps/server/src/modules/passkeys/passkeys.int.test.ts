import { and, eq, isNotNull } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { AuthenticationOptions, RegistrationOptions } from '@carteirinha/shared/contracts/passkeys';
import { accounts, clinics, passkeys, sessions, users } from '../../db/schema.ts';
import { TEST_PASSWORD, changeSettings, cookieHeaderOf, createClinic, createSignedInUser, createTestApp, enrolTotp, type TestApp } from '../../../test/helpers.ts';
import { createSoftAuthenticator, type SoftAuthenticator } from '../../../test/soft-authenticator.ts';

let t: TestApp;
const PLATFORM = 'localhost:3999';
let clinicHost: string;
let clinicId: string;

function on(host: string, cookie?: string) {
  return { host, origin: `http://${host}`, ...(cookie ? { cookie } : {}) };
}

function post(host: string, url: string, payload: Record<string, unknown>, cookie?: string) {
  return t.app.inject({ method: 'POST', url, headers: on(host, cookie), payload });
}

/** Adds a passkey through Segurança, on the given site, as the owner of `cookie`. */
async function addPasskey(authenticator: SoftAuthenticator, host: string, cookie: string, name = 'Celular'): Promise<LightMyRequestResponse> {
  const options = await t.app.inject({ method: 'GET', url: '/api/passkeys/registration-options', headers: on(host, cookie) });
  expect(options.statusCode, options.body).toBe(200);
  const response = authenticator.register(options.json<RegistrationOptions>(), `http://${host}`);
  return post(host, '/api/passkeys', { name, response }, cookie);
}

async function signInWithPasskey(authenticator: SoftAuthenticator, host: string, settings: { userVerified?: boolean } = {}) {
  const options = await post(host, '/api/auth/passkey/sign-in-options', {});
  expect(options.statusCode, options.body).toBe(200);
  const response = authenticator.authenticate(options.json<AuthenticationOptions>(), `http://${host}`, settings);
  return { response, answer: await post(host, '/api/auth/passkey/sign-in', { response }) };
}

function me(host: string, cookie: string) {
  return t.app.inject({ method: 'GET', url: '/api/me', headers: { host, cookie } });
}

async function passwordSignIn(host: string, email: string) {
  return post(host, '/api/auth/sign-in/email', { email, password: TEST_PASSWORD });
}

beforeAll(async () => {
  // Every test here signs up and in from the same address: the per-IP limit is not what they are about.
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  ({ clinicId } = await createClinic(t.db, 'Clínica Passkey'));
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  clinicHost = `${clinic?.slug ?? ''}.localhost:3999`;
});
afterAll(async () => {
  await t.close();
});

describe('registration and sign-in', () => {
  it('adds a passkey, lists it, and signs in with it alone: a session that passed two factors', async () => {
    const owner = await createSignedInUser(t, null);
    const authenticator = createSoftAuthenticator();
    const added = await addPasskey(authenticator, PLATFORM, owner.cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ name: 'Celular', rpId: 'localhost', lastUsedAt: null });

    const list = await t.app.inject({ method: 'GET', url: '/api/passkeys', headers: on(PLATFORM, owner.cookie) });
    expect(list.json<{ passkeys: { name: string }[] }>().passkeys.map((passkey) => passkey.name)).toEqual(['Celular']);
    // The key material never leaves the server.
    expect(list.body).not.toContain('publicKey');

    const { answer } = await signInWithPasskey(authenticator, PLATFORM);
    expect(answer.statusCode, answer.body).toBe(200);
    const session = await me(PLATFORM, cookieHeaderOf(answer));
    expect(session.json()).toMatchObject({ user: { id: owner.userId }, twoFactor: { verified: true } });
    const [stored] = await t.db.select({ lastUsedAt: passkeys.lastUsedAt, counter: passkeys.counter }).from(passkeys).where(eq(passkeys.userId, owner.userId));
    expect(stored?.counter).toBe(1);
    expect(stored?.lastUsedAt).not.toBeNull();
  });

  it('refuses a replayed answer, a counter that went back, and a sign-in without user verification', async () => {
    const owner = await createSignedInUser(t, null);
    const authenticator = createSoftAuthenticator();
    expect((await addPasskey(authenticator, PLATFORM, owner.cookie)).statusCode).toBe(201);
    const first = await signInWithPasskey(authenticator, PLATFORM);
    expect(first.answer.statusCode).toBe(200);

    // The same answer again: its challenge was used up.
    const replay = await post(PLATFORM, '/api/auth/passkey/sign-in', { response: first.response });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyChallengeExpired, message: messages.passkeys.expired });
    expect(replay.cookies).toHaveLength(0);

    // A cloned authenticator whose counter is behind the server's.
    const credential = authenticator.credentials[0];
    if (!credential) throw new Error('no credential');
    credential.counter = 0;
    const cloned = await signInWithPasskey(authenticator, PLATFORM);
    expect(cloned.answer.statusCode).toBe(401);
    expect(cloned.answer.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyRefused });

    // Without the device's PIN or biometrics a passkey is one factor: not enough to sign in alone.
    const unverified = await signInWithPasskey(authenticator, PLATFORM, { userVerified: false });
    expect(unverified.answer.statusCode).toBe(401);
    expect(unverified.answer.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyRefused });
  });

  it('binds a passkey to the site it was made on: a clinic patient signs in on the clinic host, not elsewhere', async () => {
    const signUp = await post(clinicHost, '/api/auth/sign-up/email', { email: `paciente.${Date.now()}@teste.dev`, password: TEST_PASSWORD, name: 'Paciente' });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const cookie = cookieHeaderOf(signUp);
    const authenticator = createSoftAuthenticator();
    const added = await addPasskey(authenticator, clinicHost, cookie);
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<{ rpId: string }>().rpId).toBe(clinicHost.replace(':3999', ''));

    const onClinic = await signInWithPasskey(authenticator, clinicHost);
    expect(onClinic.answer.statusCode, onClinic.answer.body).toBe(200);
    expect((await me(clinicHost, cookieHeaderOf(onClinic.answer))).json()).toMatchObject({ role: 'patient', clinic: { id: clinicId } });

    // The same credential answered for the platform's host (a browser would not even offer it there).
    const options = await post(PLATFORM, '/api/auth/passkey/sign-in-options', {});
    const credentialId = authenticator.credentials[0]?.id;
    const response = authenticator.authenticate(options.json<AuthenticationOptions>(), `http://${PLATFORM}`, { credentialId, rpId: 'localhost' });
    const elsewhere = await post(PLATFORM, '/api/auth/passkey/sign-in', { response });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyWrongDomain, message: messages.passkeys.invalidDomain });
  });

  it('has no relying party on a site reached by IP address', async () => {
    const owner = await createSignedInUser(t, null);
    const options = await t.app.inject({ method: 'GET', url: '/api/passkeys/registration-options', headers: on('127.0.0.1:3999', owner.cookie) });
    expect(options.statusCode).toBe(400);
    expect(options.json()).toMatchObject({ error: { message: messages.passkeys.invalidDomain } });
    const signIn = await post('127.0.0.1:3999', '/api/auth/passkey/sign-in-options', {});
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyWrongDomain });
  });

  it('refuses a deactivated account through better-auth’s own session hook', async () => {
    const owner = await createSignedInUser(t, null);
    const authenticator = createSoftAuthenticator();
    expect((await addPasskey(authenticator, PLATFORM, owner.cookie)).statusCode).toBe(201);
    await t.db.update(users).set({ deactivatedAt: new Date() }).where(eq(users.id, owner.userId));
    const { answer } = await signInWithPasskey(authenticator, PLATFORM);
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toMatchObject({ code: AUTH_ERROR_CODES.accountDeactivated });
  });
});

describe('removal', () => {
  it('ends the sessions the passkey opened and leaves the others', async () => {
    const owner = await createSignedInUser(t, null);
    const authenticator = createSoftAuthenticator();
    const added = await addPasskey(authenticator, PLATFORM, owner.cookie);
    const { answer } = await signInWithPasskey(authenticator, PLATFORM);
    const passkeyCookie = cookieHeaderOf(answer);
    expect((await me(PLATFORM, passkeyCookie)).statusCode).toBe(200);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/passkeys/${added.json<{ id: string }>().id}`, headers: on(PLATFORM, owner.cookie) });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await me(PLATFORM, passkeyCookie)).statusCode).toBe(401);
    expect((await me(PLATFORM, owner.cookie)).statusCode).toBe(200);
    // And it no longer signs in.
    const again = await signInWithPasskey(authenticator, PLATFORM);
    expect(again.answer.json()).toMatchObject({ code: AUTH_ERROR_CODES.passkeyNotRecognized });
  });

  it('refuses to remove the last way into the account', async () => {
    const owner = await createSignedInUser(t, null);
    const first = createSoftAuthenticator();
    const second = createSoftAuthenticator();
    const a = (await addPasskey(first, PLATFORM, owner.cookie)).json<{ id: string }>();
    const b = (await addPasskey(second, PLATFORM, owner.cookie, 'Notebook')).json<{ id: string }>();
    // An account without a password (a passkey-only account).
    await t.db.delete(accounts).where(eq(accounts.userId, owner.userId));

    const remove = (id: string) => t.app.inject({ method: 'DELETE', url: `/api/passkeys/${id}`, headers: on(PLATFORM, owner.cookie) });
    expect((await remove(a.id)).statusCode).toBe(204);
    const last = await remove(b.id);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ error: { message: messages.passkeys.lastWayIn } });
    expect(await t.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, owner.userId))).toEqual([{ id: b.id }]);
  });

  it('never lists nor removes another user’s passkeys', async () => {
    const owner = await createSignedInUser(t, 'patient', clinicId);
    const stranger = await createSignedInUser(t, 'patient', clinicId);
    const added = await addPasskey(createSoftAuthenticator(), clinicHost, owner.cookie);
    const id = added.json<{ id: string }>().id;

    const list = await t.app.inject({ method: 'GET', url: '/api/passkeys', headers: on(clinicHost, stranger.cookie) });
    expect(list.json()).toEqual({ passkeys: [] });
    const removal = await t.app.inject({ method: 'DELETE', url: `/api/passkeys/${id}`, headers: on(clinicHost, stranger.cookie) });
    expect(removal.statusCode).toBe(404);
    expect(await t.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.id, id))).toHaveLength(1);
  });
});

describe('second factor', () => {
  it('an admin who must have a second factor enrols a passkey, then passes the factor with it after the password', async () => {
    const admin = await createSignedInUser(t, 'admin');
    await changeSettings(t, admin.cookie, { requireAdminTwoFactor: true });
    const settingsUrl = '/api/admin/settings';

    const signedIn = await passwordSignIn(PLATFORM, admin.email);
    const cookie = cookieHeaderOf(signedIn);
    const owing = await t.app.inject({ method: 'GET', url: settingsUrl, headers: on(PLATFORM, cookie) });
    expect(owing.statusCode, owing.body).toBe(403);

    // Enrolment: the session owes a factor and the admin has none yet.
    const authenticator = createSoftAuthenticator();
    const added = await addPasskey(authenticator, PLATFORM, cookie, 'Chave de segurança');
    expect(added.statusCode, added.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: settingsUrl, headers: on(PLATFORM, cookie) })).statusCode).toBe(200);

    // Next time: password, then the key.
    const next = cookieHeaderOf(await passwordSignIn(PLATFORM, admin.email));
    expect((await me(PLATFORM, next)).json()).toMatchObject({ twoFactor: { required: true, verified: false } });
    // With a passkey the account has a factor: a password alone no longer enrols another (TOTP) nor adds a passkey.
    expect((await post(PLATFORM, '/api/auth/two-factor/enable', { password: TEST_PASSWORD }, next)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/passkeys/registration-options', headers: on(PLATFORM, next) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/passkeys', headers: on(PLATFORM, next) })).statusCode).toBe(403);

    const options = await post(PLATFORM, '/api/auth/passkey/second-factor-options', {}, next);
    expect(options.statusCode, options.body).toBe(200);
    expect(options.json<AuthenticationOptions>().allowCredentials).toHaveLength(1);
    const response = authenticator.authenticate(options.json<AuthenticationOptions>(), `http://${PLATFORM}`, { userVerified: false });
    const verified = await post(PLATFORM, '/api/auth/passkey/second-factor', { response }, next);
    expect(verified.statusCode, verified.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: settingsUrl, headers: on(PLATFORM, next) })).statusCode).toBe(200);

    // A passkey sign-in with user verification needs no password and no code.
    const direct = await signInWithPasskey(authenticator, PLATFORM);
    expect((await t.app.inject({ method: 'GET', url: settingsUrl, headers: on(PLATFORM, cookieHeaderOf(direct.answer)) })).statusCode).toBe(200);
    await changeSettings(t, cookieHeaderOf(direct.answer), { requireAdminTwoFactor: false });
  });

  it('a security key stands beside TOTP after the password: the pending sign-in ends with a verified session', async () => {
    const user = await createSignedInUser(t, null);
    const authenticator = createSoftAuthenticator();
    expect((await addPasskey(authenticator, PLATFORM, user.cookie, 'Chave USB')).statusCode).toBe(201);
    await enrolTotp(t, user.cookie);

    const pending = await passwordSignIn(PLATFORM, user.email);
    expect(pending.json()).toMatchObject({ twoFactorRedirect: true });
    const twoFactorCookie = cookieHeaderOf(pending);
    const options = await post(PLATFORM, '/api/auth/passkey/second-factor-options', {}, twoFactorCookie);
    expect(options.statusCode, options.body).toBe(200);
    const response = authenticator.authenticate(options.json<AuthenticationOptions>(), `http://${PLATFORM}`, { userVerified: false });
    const verified = await post(PLATFORM, '/api/auth/passkey/second-factor', { response }, twoFactorCookie);
    expect(verified.statusCode, verified.body).toBe(200);
    const session = cookieHeaderOf(verified);
    expect((await me(PLATFORM, session)).json()).toMatchObject({ user: { id: user.userId }, twoFactor: { enabled: true, verified: true } });
    // The session belongs to the key: removing the key would end it.
    const opened = await t.db.select({ passkeyId: sessions.passkeyId }).from(sessions).where(and(eq(sessions.userId, user.userId), isNotNull(sessions.passkeyId)));
    expect(opened).toHaveLength(1);

    // The pending sign-in was used up: its cookie opens nothing more.
    const again = await post(PLATFORM, '/api/auth/passkey/second-factor-options', {}, twoFactorCookie);
    expect(again.statusCode).toBe(401);
  });
});
