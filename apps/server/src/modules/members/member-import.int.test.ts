/**
 * Issue 26, 'Importar CSV': a company enrolls its employees. The preview names each line's problem and writes nothing;
 * the confirmation writes every good line in one transaction (or nothing when a line changed meanwhile); a company-paid
 * import activates the cards at once until the company's date; each person is invited on the clinic's own host, told
 * which company shared their data and how to refuse; other clinics and the receptionist are kept out.
 */
import { generateCpf } from '@brazilian-utils/brazilian-utils';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberImportPreview, MemberImportResult } from '@carteirinha/shared/contracts/member-imports';
import { MEMBER_IMPORT_MAX_ROWS } from '@carteirinha/shared/contracts/member-imports';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { auditLog, cards, clinics, companyMemberships, emailOutbox, plans, subscriptions, userRoles, users } from '../../db/schema.ts';
import { createCardHolder } from '../cards/card-fixtures.ts';
import { enrolByCompany } from '../subscriptions/lifecycle.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, settleWork, type TestApp } from '../../../test/helpers.ts';

const m = messages.memberImport;
let t: TestApp;
let clinicId: string;
let planId: string;
let owner: string;
let staff: string;
let otherClinicId: string;
let otherOwner: string;
let otherPlanId: string;
let takenCpf: string;
let patientEmail: string;
let staffEmail: string;
const NOW = new Date('2026-11-26T15:00:00Z');

const as = (cookie: string) => (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: PUBLIC_URL, ...headers }, payload });

function base64Of(text: string, encoding: 'utf-8' | 'latin1' = 'utf-8'): string {
  return Buffer.from(text, encoding === 'utf-8' ? 'utf8' : 'latin1').toString('base64');
}

function request(file: string, changes: Record<string, unknown> = {}) {
  return { planId, payer: 'person', companyName: 'Construtora Horizonte Ltda', cnpj: '11.222.333/0001-81', validUntil: null, fileBase64: base64Of(file), ...changes };
}

async function preview(cookie: string, body: Record<string, unknown>): Promise<MemberImportPreview> {
  const response = await as(cookie)('/api/clinic/member-imports/preview', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<MemberImportPreview>();
}

const goodLinesOf = (result: MemberImportPreview) => result.rows.filter((row) => row.errors.length === 0).map((row) => row.line);

async function patientsOf(clinic: string): Promise<number> {
  const [row] = await t.db.select({ total: count() }).from(userRoles).where(and(eq(userRoles.clinicId, clinic), eq(userRoles.role, 'patient')));
  return row?.total ?? 0;
}

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000', MAIN_DOMAIN: 'carteirinha.test' }, { now: () => NOW });
  ({ clinicId, planId } = await createClinic(t.db, 'Clínica da Empresa'));
  await t.db.update(clinics).set({ contactEmail: 'contato@clinica-empresa.test' }).where(eq(clinics.id, clinicId));
  owner = (await createSignedInUser(t, 'clinic_admin', clinicId)).cookie;
  const receptionist = await createSignedInUser(t, 'clinic_staff', clinicId);
  staff = receptionist.cookie;
  const [staffRow] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, receptionist.userId));
  staffEmail = staffRow?.email ?? '';
  takenCpf = generateCpf();
  const holder = await createCardHolder(t, clinicId, { cpf: takenCpf });
  const [holderRow] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, holder.userId));
  patientEmail = holderRow?.email ?? '';
  ({ clinicId: otherClinicId, planId: otherPlanId } = await createClinic(t.db, 'Clínica Vizinha'));
  otherOwner = (await createSignedInUser(t, 'clinic_admin', otherClinicId)).cookie;
});
afterAll(async () => t.close());

describe('Importar CSV — the preview', () => {
  it('names each line’s problem in pt-BR and writes nothing', async () => {
    const good = [generateCpf(), generateCpf()];
    const duplicate = generateCpf();
    const file = [
      'nome;CPF;e-mail;data de nascimento;telefone',
      `Ana Souza;${good[0]};ana.${Date.now()}@empresa.test;15/03/1990;(11) 98888-7777`,
      `Bruno Lima;123.456.789-00;bruno@empresa.test;;`,
      `Carla Dias;${duplicate};carla@empresa.test;;`,
      `Carlos Dias;${duplicate};carlos@empresa.test;;`,
      `Diego Reis;${takenCpf};diego@empresa.test;;`,
      `Elisa Melo;${good[1]};${patientEmail};;`,
      `Fábio Nunes;${generateCpf()};${staffEmail};;`,
      `Gabi Rocha;${generateCpf()};nao-e-email;31/02/1990;`,
      `Heitor Alves;${generateCpf()};carla@empresa.test;;`,
    ].join('\r\n');
    const before = await patientsOf(clinicId);
    const result = await preview(owner, request(file));
    expect(result).toMatchObject({ total: 9, valid: 2, invalid: 7, encoding: 'utf-8', delimiter: ';' });
    const errorsOf = (line: number) => result.rows.find((row) => row.line === line)?.errors;
    expect(errorsOf(2)).toEqual([]);
    expect(errorsOf(3)).toEqual([messages.validation.invalidCpf]);
    expect(errorsOf(4)).toEqual([]);
    expect(errorsOf(5)).toEqual([formatMessage(m.duplicateCpfInFile, { line: 4 })]);
    expect(errorsOf(6)).toEqual([m.cpfInProgramme]);
    expect(errorsOf(7)).toEqual([m.emailIsPatient]);
    expect(errorsOf(8)).toEqual([m.emailHasOtherRole]);
    expect(errorsOf(9)).toEqual([messages.validation.invalidEmail, m.invalidBirthDate]);
    expect(errorsOf(10)).toEqual([formatMessage(m.duplicateEmailInFile, { line: 4 })]);
    expect(result.rows.find((row) => row.line === 2)).toMatchObject({ birthDate: '1990-03-15', phone: '11988887777', cpf: good[0] });
    expect(await patientsOf(clinicId)).toBe(before);
  });

  it('reads a Windows-1252 file separated by commas, as Excel saves it', async () => {
    const file = `Nome,CPF,E-mail\r\nJoão Conceição,${generateCpf()},joao.${Date.now()}@empresa.test\r\n`;
    const response = await as(owner)('/api/clinic/member-imports/preview', { ...request(''), fileBase64: base64Of(file, 'latin1') });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<MemberImportPreview>();
    expect(result).toMatchObject({ encoding: 'windows-1252', delimiter: ',', valid: 1 });
    expect(result.rows[0]?.fullName).toBe('João Conceição');
  });

  it('refuses a file without the columns, without rows, or over the size limit, with a clear message', async () => {
    const noColumns = await as(owner)('/api/clinic/member-imports/preview', request('nome;telefone\r\nAna;11999998888'));
    expect(noColumns.statusCode).toBe(400);
    expect(noColumns.json<{ error: { message: string } }>().error.message).toBe(formatMessage(m.missingColumns, { columns: 'CPF, e-mail' }));
    const empty = await as(owner)('/api/clinic/member-imports/preview', request('nome;cpf;email\r\n'));
    expect(empty.json<{ error: { message: string } }>().error.message).toBe(m.noRows);
    const rows = Array.from({ length: MEMBER_IMPORT_MAX_ROWS + 1 }, (_, index) => `P${index};1;p${index}@x.test`);
    const tooMany = await as(owner)('/api/clinic/member-imports/preview', request(['nome;cpf;email', ...rows].join('\n')));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ error: { message: string } }>().error.message).toBe(formatMessage(m.tooManyRows, { count: MEMBER_IMPORT_MAX_ROWS + 1, rows: MEMBER_IMPORT_MAX_ROWS }));
  });

  it('marks the lines past the platform plan’s max_patients', async () => {
    const { clinicId: small, planId: smallPlan } = await createClinic(t.db, 'Clínica Pequena');
    const [platformPlan] = await t.db.insert(plans).values({ name: `Mini ${Date.now()}`, priceCents: 100, maxPatients: 2 }).returning({ id: plans.id });
    await t.db.update(clinics).set({ planId: platformPlan?.id ?? null }).where(eq(clinics.id, small));
    const smallOwner = (await createSignedInUser(t, 'clinic_admin', small)).cookie;
    await createSignedInUser(t, 'patient', small);
    const stamp = Date.now();
    const file = ['nome;cpf;email', ...[1, 2, 3].map((index) => `Pessoa ${index};${generateCpf()};p${index}.${stamp}@x.test`)].join('\n');
    const result = await preview(smallOwner, request(file, { planId: smallPlan }));
    expect(result.rows.map((row) => row.errors)).toEqual([[], [formatMessage(m.overPatientLimit, { max: 2 })], [formatMessage(m.overPatientLimit, { max: 2 })]]);
  });
});

describe('Importar CSV — the confirmation', () => {
  it('each pays: writes every good line in one transaction and invites each person on the clinic’s host, with the company and how to refuse', async () => {
    const stamp = Date.now();
    const file = ['nome;cpf;email;telefone', `Ana Convite;${generateCpf()};ana.${stamp}@empresa.test;11988887777`, `Bia Convite;${generateCpf()};bia.${stamp}@empresa.test;`, `Ruim;000;x;`].join('\n');
    const shown = await preview(owner, request(file));
    const before = await patientsOf(clinicId);
    const response = await as(owner)('/api/clinic/member-imports', { ...request(file), expectedLines: goodLinesOf(shown) }, { 'idempotency-key': `import-${stamp}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<MemberImportResult>()).toEqual({ imported: 2, invited: 2, companyMembershipId: null });
    expect(await patientsOf(clinicId)).toBe(before + 2);
    // A double click (the same key) answers the same and writes nothing more.
    const again = await as(owner)('/api/clinic/member-imports', { ...request(file), expectedLines: goodLinesOf(shown) }, { 'idempotency-key': `import-${stamp}` });
    expect(again.statusCode).toBe(200);
    expect(await patientsOf(clinicId)).toBe(before + 2);
    const [audit] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'members.imported'), eq(auditLog.clinicId, clinicId))).orderBy(desc(auditLog.createdAt)).limit(1);
    expect(audit?.details).toMatchObject({ payer: 'person', imported: 2, refused: 1, lines: 3 });

    await settleWork(t);
    const [mail] = await t.db.select().from(emailOutbox).where(eq(emailOutbox.to, `ana.${stamp}@empresa.test`));
    expect(mail?.subject).toBe(formatMessage(m.inviteSubject, { company: 'Construtora Horizonte Ltda', clinic: 'Clínica da Empresa' }));
    expect(mail?.text).toContain('A empresa Construtora Horizonte Ltda compartilhou seu nome, CPF e e-mail com Clínica da Empresa');
    expect(mail?.text).toContain(formatMessage(m.inviteRefuse, { contact: 'contato@clinica-empresa.test' }));
    const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicId));
    expect(mail?.text).toMatch(new RegExp(`http://${clinic?.slug}\\.carteirinha\\.test:3999/auth/aceitar-convite\\?token=`));
    // Nobody was given a subscription: each person subscribes on the clinic's site.
    const [ana] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, `ana.${stamp}@empresa.test`));
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.userId, ana?.id ?? ''))).toEqual([]);
  });

  it('the company pays: records the membership, and the cards are active at once until the end of the company’s date', async () => {
    const stamp = Date.now();
    const people = [`Caio Empresa;${generateCpf()};caio.${stamp}@empresa.test`, `Duda Empresa;${generateCpf()};duda.${stamp}@empresa.test`];
    const file = ['nome;cpf;email', ...people].join('\n');
    const body = request(file, { payer: 'company', validUntil: '2026-12-31' });
    const shown = await preview(owner, body);
    const response = await as(owner)('/api/clinic/member-imports', { ...body, expectedLines: goodLinesOf(shown) });
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<MemberImportResult>();
    expect(result).toMatchObject({ imported: 2 });
    const [membership] = await t.db.select().from(companyMemberships).where(eq(companyMemberships.id, result.companyMembershipId ?? ''));
    expect(membership).toMatchObject({ clinicId, companyName: 'Construtora Horizonte Ltda', cnpj: '11222333000181', validUntil: '2026-12-31', planId });
    const rows = await t.db.select().from(subscriptions).where(eq(subscriptions.companyMembershipId, membership?.id ?? ''));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'active', provider: null, amountCents: null });
      // The end of 31/12 in São Paulo.
      expect(row.expiresAt?.toISOString()).toBe('2027-01-01T03:00:00.000Z');
    }
    await settleWork(t);
    const issued = await t.db.select().from(cards).where(inArray(cards.subscriptionId, rows.map((row) => row.id)));
    expect(issued).toHaveLength(2);

    // The receptionist finds the card by the person's CPF and it validates at once (no payment, no carência).
    const caioCpf = people[0]?.split(';')[1] ?? '';
    const answer = await t.app.inject({ method: 'POST', url: '/api/clinic/card-validations', headers: { cookie: staff, origin: PUBLIC_URL }, payload: { cardToken: caioCpf, source: 'manual' } });
    expect(answer.json<{ outcome: string }>().outcome).toBe('valid');
  });

  it('a company-paid member reads who pays, and has no payment method to change', async () => {
    const patient = await createSignedInUser(t, 'patient', clinicId);
    const [membership] = await t.db
      .insert(companyMemberships)
      .values({ clinicId, companyName: 'Construtora Horizonte Ltda', cnpj: '11222333000181', planId, validUntil: '2027-06-30' })
      .returning({ id: companyMemberships.id });
    await t.db.transaction((tx) =>
      enrolByCompany(
        { tx, jobs: t.app.jobs, now: NOW, source: 'test', actorUserId: patient.userId },
        { clinicId, planId, companyMembershipId: membership?.id ?? '', userIds: [patient.userId], expiresAt: new Date('2027-07-01T03:00:00Z') },
      ),
    );
    const mine = await t.app.inject({ method: 'GET', url: '/api/patient/subscription', headers: { cookie: patient.cookie } });
    expect(mine.json().subscription).toMatchObject({ status: 'active', company: { name: 'Construtora Horizonte Ltda' }, paymentMethod: null });
    const change = await t.app.inject({ method: 'PUT', url: '/api/patient/subscription/payment-method', headers: { cookie: patient.cookie, origin: PUBLIC_URL }, payload: { paymentMethod: 'pix' } });
    expect(change.statusCode).toBe(409);
    expect(change.json().error.message).toBe(messages.checkoutRules.companyPaid);
    // Someone who pays for themself reads no company.
    const own = await createSignedInUser(t, 'patient', clinicId);
    expect((await t.app.inject({ method: 'GET', url: '/api/patient/subscription', headers: { cookie: own.cookie } })).json().subscription).toBeNull();
  });

  it('benefits of a company-paid membership end at its date, with no grace', async () => {
    const { benefitsStateOf } = await import('../subscriptions/benefits.ts');
    const facts = { status: 'active' as const, expiresAt: new Date('2027-01-01T03:00:00Z'), benefitsStartAt: null, canceledAt: null, companyMembershipId: 'x' };
    expect(benefitsStateOf(facts, 5, new Date('2027-01-01T02:59:59Z'))).toBe('active');
    expect(benefitsStateOf(facts, 5, new Date('2027-01-01T03:00:00Z'))).toBe('suspended');
    expect(benefitsStateOf({ ...facts, companyMembershipId: null }, 5, new Date('2027-01-01T03:00:00Z'))).toBe('active');
  });

  it('writes nothing when a line the preview found good went bad meanwhile', async () => {
    const stamp = Date.now();
    const cpf = generateCpf();
    const file = ['nome;cpf;email', `Eva Antes;${generateCpf()};eva.${stamp}@empresa.test`, `Fred Depois;${cpf};fred.${stamp}@empresa.test`].join('\n');
    const shown = await preview(owner, request(file));
    expect(shown.valid).toBe(2);
    // Meanwhile someone subscribed with Fred's CPF.
    await createCardHolder(t, clinicId, { cpf });
    const before = await patientsOf(clinicId);
    const response = await as(owner)('/api/clinic/member-imports', { ...request(file), expectedLines: goodLinesOf(shown) });
    expect(response.statusCode).toBe(409);
    expect(response.json<{ error: { message: string } }>().error.message).toBe(formatMessage(m.changedSincePreview, { lines: formatMessage(m.line, { line: 3 }) }));
    expect(await patientsOf(clinicId)).toBe(before);
    expect(await t.db.select().from(users).where(eq(users.email, `eva.${stamp}@empresa.test`))).toEqual([]);
  });
});

describe('Importar CSV — who may', () => {
  it('refuses the receptionist, and keeps each clinic to its own plans and people', async () => {
    const file = `nome;cpf;email\nZé Recepção;${generateCpf()};ze.${Date.now()}@empresa.test`;
    expect((await as(staff)('/api/clinic/member-imports/preview', request(file))).statusCode).toBe(403);
    expect((await as(staff)('/api/clinic/member-imports', { ...request(file), expectedLines: [2] })).statusCode).toBe(403);
    // Another clinic's plan is not one this clinic can enrol people in.
    const foreign = await as(owner)('/api/clinic/member-imports/preview', request(file, { planId: otherPlanId }));
    expect(foreign.statusCode).toBe(400);
    // This clinic's claimed CPF is free in the other clinic (one person per CPF per clinic).
    const elsewhere = await preview(otherOwner, { ...request(`nome;cpf;email\nDiego Vizinho;${takenCpf};diego.${Date.now()}@vizinha.test`), planId: otherPlanId });
    expect(elsewhere.valid).toBe(1);
  });
});
