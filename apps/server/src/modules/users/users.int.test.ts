import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, sessions, userRoles } from '../../db/schema.ts';
import { createClinic, createSignedInUser, createTestApp, signIn, uniqueEmail, type TestApp, apiAs } from '../../../test/helpers.ts';

let t: TestApp;
let admin: { userId: string; cookie: string };
let clinicId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t, 'admin');
  clinicId = (await createClinic(t.db, 'Clínica dos Usuários')).clinicId;
});
afterAll(async () => {
  await t.close();
});

const api = apiAs(() => t, () => admin.cookie);

describe('admin users and roles', () => {
  it('lists real e-mails, role labels, clinic names, status and last sign-in, searched on the server', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const page = (await api('GET', `/api/admin/users?q=${encodeURIComponent(staff.email.toUpperCase())}`)).json();
    expect(page.items).toEqual([
      expect.objectContaining({ id: staff.userId, email: staff.email, role: 'clinic_staff', clinicName: 'Clínica dos Usuários', status: 'active' }),
    ]);
    expect(page.items[0].lastSignInAt).not.toBeNull();
    const byName = (await api('GET', '/api/admin/users?q=pessoa de teste')).json();
    expect(byName.total).toBeGreaterThanOrEqual(2);
  });

  it('assigns a role to an existing user found by e-mail, then changes it, then deactivates the user', async () => {
    const person = await createSignedInUser(t, null);
    const assigned = await api('POST', '/api/admin/user-roles', { email: person.email, role: 'clinic_admin', clinicId });
    expect(assigned.statusCode).toBe(201);
    expect(assigned.json()).toMatchObject({ invited: false, user: { role: 'clinic_admin', clinicId, status: 'active' } });

    const again = await api('POST', '/api/admin/user-roles', { userId: person.userId, role: 'patient', clinicId });
    expect(again.statusCode).toBe(409);

    const changed = await api('PUT', `/api/admin/user-roles/${person.userId}`, { role: 'clinic_staff', clinicId });
    expect(changed.json()).toMatchObject({ role: 'clinic_staff' });
    // A change of rights ends the user's sessions: the next request signs in again with the new role.
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);

    const personCookie = (await signIn(t.app, person.email)).cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect((await api('DELETE', `/api/admin/user-roles/${person.userId}`)).statusCode).toBe(204);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, person.userId))).toEqual([]);
    const after = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: personCookie } });
    expect(after.statusCode).toBe(401);
    const listed = (await api('GET', `/api/admin/users?q=${encodeURIComponent(person.email)}`)).json();
    expect(listed.items[0]).toMatchObject({ status: 'disabled', role: null });
  });

  it('invites a new e-mail: the account exists and a set-password link is e-mailed', async () => {
    const email = uniqueEmail('convidado');
    const invited = await api('POST', '/api/admin/user-roles', { email, role: 'clinic_staff', clinicId });
    expect(invited.statusCode).toBe(201);
    expect(invited.json()).toMatchObject({ invited: true, user: { email, role: 'clinic_staff' } });
    const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.createdAt));
    expect(mail?.subject).toBe('Você foi convidado para a Carteirinha');
    expect(mail?.text).toContain('Atendente');
    const token = new URL(/https?:\/\/\S+/.exec(mail!.text)![0]).searchParams.get('token');
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: { origin: 'http://127.0.0.1:3999' }, payload: { token, newPassword: 'minha-senha-nova' } });
    expect(reset.statusCode).toBe(200);
    expect((await signIn(t.app, email, 'minha-senha-nova')).statusCode).toBe(200);
  });

  it('validates the role form in pt-BR', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: 'nao-e-uuid', role: 'admin' }, 'ID do usuário deve ser um UUID válido'],
      [{ email: uniqueEmail(), role: 'dono' }, 'Selecione uma função para o usuário'],
      [{ email: uniqueEmail(), role: 'patient' }, 'Selecione a clínica do usuário'],
      [{ role: 'admin' }, 'Informe o email do usuário'],
    ];
    for (const [payload, message] of cases) {
      const response = await api('POST', '/api/admin/user-roles', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    const self = await api('DELETE', `/api/admin/user-roles/${admin.userId}`);
    expect(self.statusCode).toBe(409);
    expect(self.json().error.message).toBe('Você não pode alterar ou remover a sua própria função');
  });

  it('counts users by role', async () => {
    const counts = (await api('GET', '/api/admin/users/counts')).json();
    const roles = await t.db.select({ role: userRoles.role }).from(userRoles);
    expect(counts.admins).toBe(roles.filter((r) => r.role === 'admin').length);
    expect(counts.staff).toBe(roles.filter((r) => r.role === 'clinic_staff').length);
    expect(counts.total).toBeGreaterThanOrEqual(roles.length);
  });
});
