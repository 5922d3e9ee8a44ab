/**
 * Issue 22, the CPF take-over: a patient checked out with another person's CPF, the clinic's CPF lookup then found
 * the impostor's card, and the CPF was locked to the impostor. A CPF now belongs to one person per clinic: a second
 * claim is refused in pt-BR and audited, and the clinic admin gives a CPF to its real owner after checking a document.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, cpfClaims, profiles, subscriptions } from '../../db/schema.ts';
import { createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';
import { callAs, checkoutBody, createPatient, createProgramme, newKey, OTHER_VALID_CPF, VALID_CPF, type Programme } from '../../../test/checkout-kit.ts';

const CPF_DIGITS = VALID_CPF.replace(/\D/g, '');
let t: TestApp;
let programme: Programme;
let clinicAdmin: { userId: string; cookie: string };

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  programme = await createProgramme(t, 'Clínica do CPF');
  clinicAdmin = await createSignedInUser(t, 'clinic_admin', programme.clinicId);
});
afterAll(async () => t.close());

function subscribe(cookie: string, cpf = VALID_CPF) {
  const body = checkoutBody(programme);
  return callAs(t, cookie)('POST', '/api/patient/subscriptions', { ...body, customerData: { ...(body.customerData as object), cpfCnpj: cpf } }, newKey());
}

function reassign(cookie: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/clinic/cpf-claims', headers: { cookie, origin: PUBLIC_URL }, payload });
}

async function profileCpfOf(userId: string): Promise<string | null> {
  const [row] = await t.db.select({ cpf: profiles.cpf }).from(profiles).where(eq(profiles.id, userId));
  return row?.cpf ?? null;
}

async function claimOf(cpf: string) {
  return t.db.select({ userId: cpfClaims.userId, dependentId: cpfClaims.dependentId }).from(cpfClaims).where(and(eq(cpfClaims.clinicId, programme.clinicId), eq(cpfClaims.cpf, cpf)));
}

async function auditsOf(action: string) {
  return t.db.select().from(auditLog).where(and(eq(auditLog.clinicId, programme.clinicId), eq(auditLog.action, action)));
}

describe('a CPF belongs to one person per clinic', () => {
  it('refuses a second person checking out with a CPF already claimed, in pt-BR, audited, and changes nothing', async () => {
    const owner = await createPatient(t, programme);
    expect((await subscribe(owner.cookie)).statusCode).toBe(201);
    expect(await claimOf(CPF_DIGITS)).toEqual([{ userId: owner.userId, dependentId: null }]);

    const impostor = await createPatient(t, programme);
    const refused = await subscribe(impostor.cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.checkoutRules.cpfTaken);
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, impostor.userId))).toEqual([]);
    expect(await profileCpfOf(impostor.userId)).toBeNull();
    expect(await claimOf(CPF_DIGITS)).toEqual([{ userId: owner.userId, dependentId: null }]);
    expect(await auditsOf('cpf.claim_refused')).toEqual([expect.objectContaining({ actorUserId: impostor.userId, entityId: impostor.userId, details: expect.objectContaining({ cpf: CPF_DIGITS, heldByUserId: owner.userId }) })]);

    // The owner's next checkout with the same CPF is theirs, and the same CPF in another clinic is another person's claim.
    const elsewhere = await createProgramme(t, 'Outra Clínica do CPF');
    const body = checkoutBody(elsewhere);
    const other = await createPatient(t, elsewhere);
    expect((await callAs(t, other.cookie)('POST', '/api/patient/subscriptions', body, newKey())).statusCode).toBe(201);
  });

  it("lets the clinic admin give a CPF to its real owner after checking a document, taking it from the impostor (audited)", async () => {
    const cpf = OTHER_VALID_CPF.replace(/\D/g, '');
    const impostor = await createPatient(t, programme);
    expect((await subscribe(impostor.cookie, OTHER_VALID_CPF)).statusCode).toBe(201);
    const owner = await createPatient(t, programme);
    expect((await subscribe(owner.cookie, OTHER_VALID_CPF)).json().error.message).toBe(messages.checkoutRules.cpfTaken);

    // Only the clinic admin: the reception cannot move a CPF, nor can the patients.
    const staff = await createSignedInUser(t, 'clinic_staff', programme.clinicId);
    expect((await reassign(staff.cookie, { cpf: OTHER_VALID_CPF, email: owner.email })).statusCode).toBe(403);
    expect((await reassign(owner.cookie, { cpf: OTHER_VALID_CPF, email: owner.email })).statusCode).toBe(403);
    const unknown = await reassign(clinicAdmin.cookie, { cpf: OTHER_VALID_CPF, email: 'ninguem@teste.dev' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(messages.cards.cpfOwnerNotFound);
    expect((await reassign(clinicAdmin.cookie, { cpf: '111.111.111-11', email: owner.email })).statusCode).toBe(400);

    const moved = await reassign(clinicAdmin.cookie, { cpf: OTHER_VALID_CPF, email: owner.email.toUpperCase() });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toEqual({ cpf, patientName: expect.any(String), movedFromAnother: true });
    expect(await claimOf(cpf)).toEqual([{ userId: owner.userId, dependentId: null }]);
    expect(await profileCpfOf(owner.userId)).toBe(cpf);
    expect(await profileCpfOf(impostor.userId)).toBeNull();
    expect(await auditsOf('cpf.reassigned')).toEqual([
      expect.objectContaining({ actorUserId: clinicAdmin.userId, entityId: owner.userId, details: { cpf, fromUserId: impostor.userId, fromDependentId: null, toUserId: owner.userId } }),
    ]);

    // The owner now checks out with it; the impostor cannot.
    expect((await subscribe(owner.cookie, OTHER_VALID_CPF)).statusCode).toBe(201);
    expect((await subscribe(impostor.cookie, OTHER_VALID_CPF)).statusCode).toBe(409);
    // A second move to the same owner changes nothing; a patient with another CPF is not given this one.
    expect((await reassign(clinicAdmin.cookie, { cpf: OTHER_VALID_CPF, email: owner.email })).json()).toMatchObject({ movedFromAnother: false });
    const holderOfAnother = await t.db.select({ userId: cpfClaims.userId }).from(cpfClaims).where(and(eq(cpfClaims.clinicId, programme.clinicId), eq(cpfClaims.cpf, CPF_DIGITS)));
    const [first] = holderOfAnother;
    const [account] = await t.db.query.users.findMany({ where: (users, { eq: equals }) => equals(users.id, first?.userId ?? ''), limit: 1 });
    const taken = await reassign(clinicAdmin.cookie, { cpf: OTHER_VALID_CPF, email: account?.email ?? '' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(messages.cards.cpfOwnerHasAnother);
  });
});
