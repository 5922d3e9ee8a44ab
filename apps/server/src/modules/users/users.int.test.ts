import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions, userRoles, users } from '../../db/schema.ts';
import { apiAs, createClinic, createSignedInUser, createTestApp, signIn, type TestApp } from '../../../test/helpers.ts';

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

async function auditOf(userId: string, action: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, userId), eq(auditLog.action, action)))
    .orderBy(desc(auditLog.createdAt));
}

describe('admin users and roles', () => {
  it('lists real e-mails, role labels, clinic names, status and last sign-in, searched on the server', async () => {
    const staff = await createSignedInUser(t, 'clinic_staff', clinicId);
    const page = (await api('GET', `/api/admin/users?q=${encodeURIComponent(staff.email.toUpperCase())}`)).json();
    expect(page.items).toEqual([
      expect.objectContaining({
        id: staff.userId,
        email: staff.email,
        role: 'clinic_staff',
        clinicName: 'Clínica dos Usuários',
        status: 'active',
        invitationPending: false,
      }),
    ]);
    // Signing up signs in: that is the account's first 'Último Login'.
    expect(page.items[0].lastSignInAt).not.toBeNull();
    const byName = (await api('GET', '/api/admin/users?q=pessoa de teste')).json();
    expect(byName.total).toBeGreaterThanOrEqual(2);
  });

  it('shows an account without a role as active: only Desativar makes it Desativado', async () => {
    const person = await createSignedInUser(t, null);
    const listed = (await api('GET', `/api/admin/users?q=${encodeURIComponent(person.email)}`)).json();
    expect(listed.items[0]).toMatchObject({ role: null, status: 'active' });
  });

  it('assigns a role to an existing user found by e-mail, then changes it, recording the previous role', async () => {
    const person = await createSignedInUser(t, null);
    // An owner who confirmed the address and signed in (the others are invited instead: unverified-account.int.test.ts).
    await t.db.update(users).set({ emailVerified: true }).where(eq(users.id, person.userId));
    const other = await createClinic(t.db, 'Outra Clínica');
    const assigned = await api('POST', '/api/admin/user-roles', { email: person.email, role: 'clinic_admin', clinicId });
    expect(assigned.statusCode).toBe(201);
    expect(assigned.json()).toMatchObject({ invited: false, user: { role: 'clinic_admin', clinicId, status: 'active' } });

    const again = await api('POST', '/api/admin/user-roles', { userId: person.userId, role: 'patient', clinicId });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('Este usuário já tem uma função. Use Alterar Permissões.');

    const changed = await api('PUT', `/api/admin/user-roles/${person.userId}`, { role: 'clinic_staff', clinicId: other.clinicId });
    expect(changed.json()).toMatchObject({ role: 'clinic_staff', clinicName: 'Outra Clínica' });
    // A change of rights ends the user's sessions: the next request signs in again with the new role.
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, person.userId))).toEqual([]);
    const [audit] = await auditOf(person.userId, 'role.updated');
    expect(audit?.details).toEqual({ role: 'clinic_staff', clinicId: other.clinicId, previousRole: 'clinic_admin', previousClinicId: clinicId });
  });

  it('answers 404 without an audit row when the user to change has no role', async () => {
    const person = await createSignedInUser(t, null);
    const updated = await api('PUT', `/api/admin/user-roles/${person.userId}`, { role: 'admin' });
    expect(updated.statusCode).toBe(404);
    expect(updated.json().error.message).toBe('Este usuário não tem uma função.');
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, person.userId))).toEqual([]);
    expect(await t.db.select().from(userRoles).where(eq(userRoles.userId, person.userId))).toEqual([]);
  });

  it('validates the role form in pt-BR', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ userId: 'nao-e-uuid', role: 'admin' }, 'ID do usuário deve ser um UUID válido'],
      [{ email: 'alguem@teste.dev', role: 'dono' }, 'Selecione uma função para o usuário'],
      [{ email: 'alguem@teste.dev', role: 'patient' }, 'Selecione a clínica do usuário'],
      [{ role: 'admin' }, 'Informe o email do usuário'],
      [{ email: 'nao-e-email', role: 'admin' }, 'Email inválido'],
    ];
    for (const [payload, message] of cases) {
      const response = await api('POST', '/api/admin/user-roles', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().error.message).toBe(message);
    }
    const unknown = await api('POST', '/api/admin/user-roles', { userId: '00000000-0000-4000-8000-000000000000', role: 'admin' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('Usuário não encontrado');
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

  it('shows the profile with its sessions', async () => {
    const person = await createSignedInUser(t, 'patient', clinicId);
    await signIn(t.app, person.email);
    const profile = await api('GET', `/api/admin/users/${person.userId}`);
    expect(profile.json()).toMatchObject({ email: person.email, role: 'patient', activeSessions: 2, emailVerified: false, phone: null });
  });
});
