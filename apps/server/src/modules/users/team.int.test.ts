/**
 * Issue 25, Equipe: a clinic's admin invites its own people (the link lands on the clinic's host), changes their role
 * and removes their access — their sessions end at once — and can never leave the clinic without an administrator or
 * reach another clinic's people.
 */
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamMember } from '@carteirinha/shared/contracts/users';
import { messages } from '@carteirinha/shared/messages';
import { clinics, emailOutbox } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, settleWork, signIn, uniqueEmail, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicId: string;
let clinicSlug: string;
let owner: { userId: string; cookie: string };
let otherOwner: string;

const as = (cookie: string) => (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });

async function lastMailTo(email: string) {
  await settleWork(t);
  const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt)).limit(1);
  if (!mail) throw new Error(`no e-mail to ${email}`);
  return mail;
}

function linkIn(text: string): URL {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error('no link');
  return new URL(match[0]);
}

async function team(): Promise<TeamMember[]> {
  const response = await as(owner.cookie)('GET', '/api/clinic/team');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ items: TeamMember[] }>().items;
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  clinicId = (await createClinic(t.db, 'Clínica da Equipe')).clinicId;
  const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
  clinicSlug = clinic!.slug;
  owner = await createSignedInUser(t, 'clinic_admin', clinicId);
  otherOwner = (await createSignedInUser(t, 'clinic_admin', (await createClinic(t.db, 'Clínica de Fora')).clinicId)).cookie;
});
afterAll(async () => t.close());

describe('Equipe', () => {
  it('invites a receptionist whose link lands on the clinic’s host, and who is on the team once the password is set', async () => {
    const email = uniqueEmail('recepcao');
    const invited = await as(owner.cookie)('POST', '/api/clinic/team', { email, role: 'clinic_staff' });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json<TeamMember>()).toMatchObject({ email, role: 'clinic_staff', status: 'invited', isSelf: false });
    expect((await team()).find((member) => member.email === email)?.status).toBe('invited');

    const link = linkIn((await lastMailTo(email)).text);
    expect(link.origin).toBe(`http://${clinicSlug}.localhost:3999`);
    expect(link.pathname).toBe('/auth/aceitar-convite');
    const accepted = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: { origin: PUBLIC_URL }, payload: { token: link.searchParams.get('token'), newPassword: 'recepcao-senha-1' } });
    expect(accepted.statusCode).toBe(200);
    expect((await signIn(t.app, email, 'recepcao-senha-1')).statusCode).toBe(200);
    expect((await team()).find((member) => member.email === email)?.status).toBe('active');

    // The same e-mail twice is refused in pt-BR, and so is bad input.
    expect((await as(owner.cookie)('POST', '/api/clinic/team', { email, role: 'clinic_staff' })).json().error.message).toBe(messages.team.alreadyMember);
    const bad = await as(owner.cookie)('POST', '/api/clinic/team', { email: uniqueEmail('x'), role: 'admin' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(messages.team.roleInvalid);
  });

  it('changes a role and removes access, ending the person’s sessions at once', async () => {
    const member = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect((await as(member.cookie)('GET', '/api/clinic/visits')).statusCode).toBe(200);
    const promoted = await as(owner.cookie)('PUT', `/api/clinic/team/${member.userId}/role`, { role: 'clinic_admin' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json<TeamMember>().role).toBe('clinic_admin');
    // The old session is gone: the new rights apply from the next sign-in.
    expect((await as(member.cookie)('GET', '/api/clinic/visits')).statusCode).toBe(401);

    const removed = await as(owner.cookie)('DELETE', `/api/clinic/team/${member.userId}`);
    expect(removed.statusCode).toBe(204);
    expect((await team()).some((row) => row.userId === member.userId)).toBe(false);
  });

  it('cancels a pending invitation, whose link then leads nowhere', async () => {
    const email = uniqueEmail('desistencia');
    const invited = (await as(owner.cookie)('POST', '/api/clinic/team', { email, role: 'clinic_staff' })).json<TeamMember>();
    expect((await as(owner.cookie)('POST', `/api/clinic/team/${invited.userId}/invitation`)).statusCode).toBe(204);
    const link = linkIn((await lastMailTo(email)).text);
    expect((await as(owner.cookie)('DELETE', `/api/clinic/team/${invited.userId}`)).statusCode).toBe(204);
    const preview = await t.app.inject({ method: 'GET', url: `/api/public/invitation?token=${encodeURIComponent(link.searchParams.get('token')!)}` });
    expect(preview.statusCode).toBe(404);
  });

  it('never leaves the clinic without an administrator who can sign in', async () => {
    const demoted = await as(owner.cookie)('PUT', `/api/clinic/team/${owner.userId}/role`, { role: 'clinic_staff' });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json().error.message).toBe(messages.team.lastAdmin);
    expect((await as(owner.cookie)('DELETE', `/api/clinic/team/${owner.userId}`)).json().error.message).toBe(messages.team.lastAdmin);
    // An invited administrator who never set a password does not count as one who can sign in.
    await as(owner.cookie)('POST', '/api/clinic/team', { email: uniqueEmail('admin-convidado'), role: 'clinic_admin' });
    expect((await as(owner.cookie)('PUT', `/api/clinic/team/${owner.userId}/role`, { role: 'clinic_staff' })).statusCode).toBe(409);
    expect((await team()).find((member) => member.isSelf)).toMatchObject({ userId: owner.userId, role: 'clinic_admin' });
  });

  it('is the clinic admin’s alone, and never reaches another clinic’s people', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    expect((await as(staff.cookie)('GET', '/api/clinic/team')).statusCode).toBe(403);
    expect((await as(otherOwner)('PUT', `/api/clinic/team/${staff.userId}/role`, { role: 'clinic_admin' })).statusCode).toBe(404);
    expect((await as(otherOwner)('DELETE', `/api/clinic/team/${staff.userId}`)).statusCode).toBe(404);
    const theirs = (await as(otherOwner)('GET', '/api/clinic/team')).json<{ items: TeamMember[] }>().items;
    expect(theirs.some((member) => member.userId === staff.userId || member.userId === owner.userId)).toBe(false);
  });
});
