import { isValidPixPayload } from '@brazilian-utils/brazilian-utils';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@carteirinha/shared/messages';
import { auditLog, clinics, contractTerms, payments, plans, profiles, subscriptionPlans, subscriptions, termsAcceptances } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  callAs,
  checkoutBody,
  createPatient,
  createProgramme,
  moneyTableCounts,
  newKey,
  OTHER_VALID_CPF,
  cpfOfCaller,
  withCallerCpf,
  TEST_CARD,
  VALID_CNPJ,
  type Programme,
} from '../../../test/checkout-kit.ts';
import { defaultTermsBody } from './default-terms.ts';

const SUBSCRIPTIONS = '/api/patient/subscriptions';
const clock = new Date('2026-11-24T12:00:00Z');
const logLines: string[] = [];
let t: TestApp;
let programme: Programme;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info', SIGN_IN_IP_LIMIT: '1000' }, { now: () => clock, logStream: { write: (line: string) => void logLines.push(line) } });
  programme = await createProgramme(t);
});
afterAll(async () => t.close());

describe('checkout: refused payloads', () => {
  const cases: [string, (p: Programme) => Record<string, unknown>, string][] = [
    ['a CPF with wrong check digits', (p) => checkoutBody(p, { customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '529.982.247-24' } }), messages.checkoutRules.invalidCpfCnpj],
    ['a CNPJ with wrong check digits', (p) => checkoutBody(p, { customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '11.222.333/0001-82' } }), messages.checkoutRules.invalidCpfCnpj],
    ['a repeated-digit CPF', (p) => checkoutBody(p, { customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '111.111.111-11' } }), messages.checkoutRules.invalidCpfCnpj],
    ['a bad phone', (p) => checkoutBody(p, { customerData: { name: 'Maria da Silva', email: 'maria@teste.dev', cpfCnpj: '529.982.247-25', phone: '123' } }), messages.validation.invalidPhone],
    ['a bad e-mail', (p) => checkoutBody(p, { customerData: { name: 'Maria da Silva', email: 'maria', cpfCnpj: '529.982.247-25' } }), messages.validation.invalidEmail],
    ['a short name', (p) => checkoutBody(p, { customerData: { name: 'Ma', email: 'maria@teste.dev', cpfCnpj: '529.982.247-25' } }), messages.validation.fullNameMin],
    ['terms not accepted', (p) => checkoutBody(p, { acceptTerms: false }), messages.contractTerms.mustAccept],
    ['a card payment without the card', (p) => checkoutBody(p, { paymentMethod: 'credit_card' }), messages.checkoutRules.cardRequired],
    ['card data with Pix', (p) => checkoutBody(p, { creditCard: TEST_CARD }), messages.checkoutRules.cardNotAllowed],
    ['a card number failing Luhn', (p) => checkoutBody(p, { paymentMethod: 'credit_card', creditCard: { ...TEST_CARD, number: '4111 1111 1111 1112' } }), messages.checkoutRules.cardNumberInvalid],
    ['an expired card', (p) => checkoutBody(p, { paymentMethod: 'credit_card', creditCard: { ...TEST_CARD, expiryMonth: '01', expiryYear: '2020' } }), messages.checkoutRules.cardExpired],
    ['a bad card month', (p) => checkoutBody(p, { paymentMethod: 'credit_card', creditCard: { ...TEST_CARD, expiryMonth: '13' } }), messages.checkoutRules.cardExpiryInvalid],
    ['a bad CVV', (p) => checkoutBody(p, { paymentMethod: 'credit_card', creditCard: { ...TEST_CARD, ccv: '12' } }), messages.checkoutRules.cardCvvInvalid],
    ['an unknown plan', (p) => checkoutBody(p, { planId: '00000000-0000-4000-8000-000000000000' }), messages.checkoutRules.planUnavailable],
    ['a payment method that does not exist', (p) => checkoutBody(p, { paymentMethod: 'cheque' }), ''],
  ];

  it.each(cases)('refuses %s with a pt-BR message and writes nothing', async (_name, body, message) => {
    const patient = await createPatient(t, programme);
    const before = await moneyTableCounts(t);
    const response = await callAs(t, patient.cookie)('POST', SUBSCRIPTIONS, body(programme), newKey());
    expect(response.statusCode).toBe(400);
    if (message) expect(response.json().error.message).toBe(message);
    else expect(response.json().error.message).toMatch(/[a-zà-ú]/i);
    expect(await moneyTableCounts(t)).toEqual(before);
  });

  it("refuses another clinic's plan, an inactive plan, and outdated or missing terms", async () => {
    const other = await createProgramme(t, 'Outra Clínica');
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const before = await moneyTableCounts(t);

    const foreign = await call('POST', SUBSCRIPTIONS, checkoutBody(programme, { planId: other.planId }));
    expect(foreign.json().error.message).toBe(messages.checkoutRules.planUnavailable);

    const [inactive] = await t.db.insert(subscriptionPlans).values({ clinicId: programme.clinicId, name: 'Plano Antigo', priceCents: 5000, isActive: false }).returning();
    expect((await call('POST', SUBSCRIPTIONS, checkoutBody(programme, { planId: inactive!.id }))).json().error.message).toBe(messages.checkoutRules.planUnavailable);

    const stale = await call('POST', SUBSCRIPTIONS, checkoutBody(programme, { termsId: other.termsId }));
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.message).toBe(messages.contractTerms.outdated);
    expect(await moneyTableCounts(t)).toEqual(before);

    const bare = await createProgramme(t, 'Clínica Sem Termos');
    await t.db.delete(contractTerms).where(eq(contractTerms.clinicId, bare.clinicId));
    const bareCall = callAs(t, (await createPatient(t, bare)).cookie);
    expect((await bareCall('GET', '/api/patient/terms')).statusCode).toBe(404);
    const missing = await bareCall('POST', SUBSCRIPTIONS, checkoutBody(bare));
    expect(missing.json().error.message).toBe(messages.contractTerms.missing);
  });

  it('asks for the new terms once the clinic publishes a version after the patient opened checkout', async () => {
    const own = await createProgramme(t, 'Clínica Dos Termos');
    const patient = await createPatient(t, own);
    const call = callAs(t, patient.cookie);
    const shown = (await call('GET', '/api/patient/terms')).json();
    expect(shown).toMatchObject({ id: own.termsId, version: 1 });
    expect(shown.body).toContain('não é plano de saúde');
    await t.db.insert(contractTerms).values({ clinicId: own.clinicId, version: 2, body: defaultTermsBody('Clínica Dos Termos', 7) });
    const refused = await call('POST', SUBSCRIPTIONS, checkoutBody(own));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.contractTerms.outdated);
    const current = (await call('GET', '/api/patient/terms')).json();
    expect(current.version).toBe(2);
    expect((await call('POST', SUBSCRIPTIONS, checkoutBody(own, { termsId: current.id }))).statusCode).toBe(201);
  });
});

describe('checkout: a subscription and its first charge', () => {
  it('by Pix: a pending subscription, a charge with a valid BR Code and QR, the acceptance with its IP, the profile filled', async () => {
    const patient = await createPatient(t, programme);
    const response = await callAs(t, patient.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme), newKey());
    expect(response.statusCode).toBe(201);
    const { subscription, payment } = response.json();
    expect(subscription).toMatchObject({ status: 'pending', amountCents: 9990, paymentMethod: 'pix', plan: { id: programme.planId } });
    expect(payment).toMatchObject({ status: 'pending', method: 'pix', amountCents: 9990, dueDate: '2026-11-24', canSimulate: true, receiptUrl: null });
    expect(isValidPixPayload(payment.pixCopyPaste)).toBe(true);
    expect(Buffer.from(payment.pixQrCode, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const [acceptance] = await t.db.select().from(termsAcceptances).where(eq(termsAcceptances.subscriptionId, subscription.id));
    expect(acceptance).toMatchObject({ termsId: programme.termsId, userId: patient.userId, ipAddress: '127.0.0.1' });
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, patient.userId));
    expect(profile).toMatchObject({ cpf: cpfOfCaller(patient.cookie), phone: '11987654321' });
    const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, subscription.id));
    expect(row).toMatchObject({ provider: 'local', providerSubscriptionId: `loc_sub_${subscription.id}` });
    const audit = await t.db.select().from(auditLog).where(and(eq(auditLog.entityId, subscription.id), eq(auditLog.action, 'subscription.created')));
    expect(audit).toHaveLength(1);
  });

  it('by boleto: due in 5 days, with the printable page of the local provider and a digitable line', async () => {
    const patient = await createPatient(t, programme);
    const response = await callAs(t, patient.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme, { paymentMethod: 'boleto', customerData: { name: 'Empresa X', email: 'x@teste.dev', cpfCnpj: VALID_CNPJ } }));
    expect(response.statusCode).toBe(201);
    const { payment } = response.json();
    expect(payment).toMatchObject({ method: 'boleto', dueDate: '2026-11-29', boletoUrl: `/paciente/assinatura/boleto/${payment.id}` });
    expect(payment.boletoDigitableLine).toMatch(/\d/);
    // A CNPJ payer leaves the profile's CPF alone.
    const [profile] = await t.db.select().from(profiles).where(eq(profiles.id, patient.userId));
    expect(profile?.cpf).toBeNull();
  });

  it('by card: the card never reaches the database or the log, and the adhesion fee goes on the first charge', async () => {
    const [plan] = await t.db.insert(subscriptionPlans).values({ clinicId: programme.clinicId, name: 'Plano Com Adesão', priceCents: 5000, adhesionFeeCents: 2500 }).returning();
    const patient = await createPatient(t, programme);
    const response = await callAs(t, patient.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme, { planId: plan!.id, paymentMethod: 'credit_card', creditCard: TEST_CARD }));
    expect(response.statusCode).toBe(201);
    const { subscription, payment } = response.json();
    expect(subscription.amountCents).toBe(5000);
    expect(payment).toMatchObject({ method: 'credit_card', amountCents: 7500, adhesionFeeCents: 2500, cardSummary: 'Visa •••• 1111' });
    // The provider captured the card in its answer: settled through the webhooks' own path, at once.
    expect(subscription.status).toBe('active');
    expect(payment.status).toBe('confirmed');
    expect(payment.receiptUrl).toBe(`/paciente/assinatura/recibo/${payment.id}`);
    const stored = JSON.stringify(await t.db.select().from(payments).where(eq(payments.subscriptionId, subscription.id)));
    expect(stored).not.toContain('4111111111111111');
    expect(logLines.join('\n')).not.toMatch(/4111 ?1111 ?1111 ?1111/);
  });

  it('refuses a declined card and leaves nothing half-written', async () => {
    const patient = await createPatient(t, programme);
    const before = await moneyTableCounts(t);
    const response = await callAs(t, patient.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme, { paymentMethod: 'credit_card', creditCard: { ...TEST_CARD, number: '4000 0000 0000 0002' } }), newKey());
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().error.message).toMatch(/cartão/i);
    expect(await moneyTableCounts(t)).toEqual(before);
  });

  it('refuses a second subscription while one is pending, and a CPF different from the profile’s', async () => {
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    expect((await call('POST', SUBSCRIPTIONS, checkoutBody(programme))).statusCode).toBe(201);
    const again = await call('POST', SUBSCRIPTIONS, checkoutBody(programme));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(messages.checkoutRules.alreadySubscribed);

    const other = await createPatient(t, programme);
    await t.db.update(profiles).set({ cpf: '52998224725' }).where(eq(profiles.id, other.userId));
    const before = await moneyTableCounts(t);
    const changed = await callAs(t, other.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme, { customerData: { name: 'Maria', email: 'm@teste.dev', cpfCnpj: OTHER_VALID_CPF } }));
    expect(changed.statusCode).toBe(400);
    expect(changed.json().error.message).toBe(messages.checkoutRules.cpfLocked);
    expect(await moneyTableCounts(t)).toEqual(before);
  });

  it("enforces the clinic's platform plan max_patients over pending, active and overdue subscriptions", async () => {
    const small = await createProgramme(t, 'Clínica Pequena');
    const [platformPlan] = await t.db.insert(plans).values({ name: 'Mini Checkout', priceCents: 100, maxPatients: 1 }).returning();
    await t.db.update(clinics).set({ planId: platformPlan!.id }).where(eq(clinics.id, small.clinicId));
    expect((await callAs(t, (await createPatient(t, small)).cookie)('POST', SUBSCRIPTIONS, checkoutBody(small))).statusCode).toBe(201);
    const before = await moneyTableCounts(t);
    const refused = await callAs(t, (await createPatient(t, small)).cookie)('POST', SUBSCRIPTIONS, checkoutBody(small));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(messages.checkoutRules.patientLimit);
    expect(await moneyTableCounts(t)).toEqual(before);
  });
});

describe('checkout: Idempotency-Key', () => {
  it('answers 20 concurrent identical checkouts with one subscription and one charge', async () => {
    const patient = await createPatient(t, programme);
    const key = newKey();
    const call = callAs(t, patient.cookie);
    const answers = await Promise.all(Array.from({ length: 20 }, () => call('POST', SUBSCRIPTIONS, checkoutBody(programme), key)));
    const created = answers.filter((answer) => answer.statusCode === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const other of answers.filter((answer) => answer.statusCode !== 201)) {
      expect(other.statusCode).toBe(409);
      expect([messages.idempotency.inFlight, messages.checkoutRules.alreadySubscribed]).toContain(other.json().error.message);
    }
    const ids = new Set(created.map((answer) => answer.json().subscription.id));
    expect(ids.size).toBe(1);
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, patient.userId));
    expect(rows).toHaveLength(1);
    expect(await t.db.select().from(payments).where(eq(payments.subscriptionId, rows[0]!.id))).toHaveLength(1);

    // The retry after the answer was lost gets the same answer back.
    const retry = await call('POST', SUBSCRIPTIONS, checkoutBody(programme), key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().payment.id).toBe(created[0]!.json().payment.id);
  });

  it('refuses the same key with another body, and a malformed key', async () => {
    const patient = await createPatient(t, programme);
    const call = callAs(t, patient.cookie);
    const key = newKey();
    expect((await call('POST', SUBSCRIPTIONS, checkoutBody(programme), key)).statusCode).toBe(201);
    const reused = await call('POST', SUBSCRIPTIONS, checkoutBody(programme, { paymentMethod: 'boleto' }), key);
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', message: messages.idempotency.keyReused });
    const malformed = await t.app.inject({ method: 'POST', url: SUBSCRIPTIONS, headers: { cookie: patient.cookie, 'idempotency-key': 'x'.repeat(200) }, payload: withCallerCpf(checkoutBody(programme), patient.cookie) });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe(messages.idempotency.invalidKey);
  });

  it('does not replay a key of another user', async () => {
    const first = await createPatient(t, programme);
    const second = await createPatient(t, programme);
    const key = newKey();
    const a = await callAs(t, first.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme), key);
    const b = await callAs(t, second.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme), key);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().subscription.id).not.toBe(a.json().subscription.id);
  });
});

describe("the patient's charges", () => {
  it('lists only the caller’s charges, and another patient’s charge is 404', async () => {
    const owner = await createPatient(t, programme);
    const created = (await callAs(t, owner.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme))).json();
    const list = await callAs(t, owner.cookie)('GET', '/api/patient/payments');
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([created.payment.id]);
    const [clinic] = await t.db.select({ name: clinics.name, cnpj: clinics.cnpj }).from(clinics).where(eq(clinics.id, programme.clinicId));
    const [payer] = await t.db.select({ name: profiles.fullName, cpf: profiles.cpf }).from(profiles).where(eq(profiles.id, owner.userId));
    // One charge with who receives (the clinic, with its CNPJ) and who pays (the holder, with the CPF of the checkout).
    expect((await callAs(t, owner.cookie)('GET', `/api/patient/payments/${created.payment.id}`)).json()).toMatchObject({
      id: created.payment.id,
      canSimulate: true,
      beneficiary: { name: clinic?.name, cnpj: clinic?.cnpj },
      payer: { name: payer?.name, cpf: payer?.cpf },
    });
    // The CPF the checkout recorded for this patient (the kit gives each caller their own), in digits.
    expect(payer?.cpf).toMatch(/^\d{11}$/);

    const stranger = await createPatient(t, programme);
    expect((await callAs(t, stranger.cookie)('GET', `/api/patient/payments/${created.payment.id}`)).statusCode).toBe(404);
    expect((await callAs(t, stranger.cookie)('GET', '/api/patient/payments')).json().items).toEqual([]);

    const elsewhere = await createProgramme(t, 'Clínica Vizinha');
    expect((await callAs(t, (await createPatient(t, elsewhere)).cookie)('GET', `/api/patient/payments/${created.payment.id}`)).statusCode).toBe(404);
  });

  it('offers the receipt once paid and no simulation then', async () => {
    const owner = await createPatient(t, programme);
    const created = (await callAs(t, owner.cookie)('POST', SUBSCRIPTIONS, checkoutBody(programme))).json();
    await t.db.update(payments).set({ status: 'received', paidAt: clock }).where(eq(payments.id, created.payment.id));
    const paid = (await callAs(t, owner.cookie)('GET', `/api/patient/payments/${created.payment.id}`)).json();
    expect(paid).toMatchObject({ receiptUrl: `/paciente/assinatura/recibo/${created.payment.id}`, canSimulate: false });
  });
});
