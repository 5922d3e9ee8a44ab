/**
 * Issue 26, Pacientes: the programme's members with their latest subscription, searched and paged on the server, and
 * a member's detail — subscriptions, cards, dependents, charges, visits, validations — on the clinic's own rows only.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member, MemberDetail } from '@carteirinha/shared/contracts/members';
import { messages } from '@carteirinha/shared/messages';
import { payments, profiles } from '../../db/schema.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';
import { createClinic, createSignedInUser, createTestApp, PUBLIC_URL, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
let clinicId: string;
let owner: string;
let staff: string;
let otherOwner: string;
let family: Holder;
let browsing: { userId: string };
let lapsed: Holder;

type Page = { items: Member[]; total: number; nextCursor: string | null };
const as = (cookie: string) => (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: { cookie, origin: PUBLIC_URL }, ...(payload ? { payload } : {}) });
const list = async (query = ''): Promise<Page> => {
  const response = await as(owner)('GET', `/api/clinic/members${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Page>();
};

beforeAll(async () => {
  t = await createTestApp({ SIGN_IN_IP_LIMIT: '1000' });
  clinicId = (await createClinic(t.db, 'Clínica dos Pacientes')).clinicId;
  owner = (await createSignedInUser(t, 'clinic_admin', clinicId)).cookie;
  staff = (await createSignedInUser(t, 'clinic_staff', clinicId)).cookie;
  otherOwner = (await createSignedInUser(t, 'clinic_admin', (await createClinic(t.db, 'Clínica Vizinha')).clinicId)).cookie;
  family = await createCardHolder(t, clinicId, { maxMembers: 4, dependents: 2, cpf: '52998224725' });
  await t.db.update(profiles).set({ fullName: 'Joana Família', phone: '11988887777' }).where(eq(profiles.id, family.userId));
  browsing = await createSignedInUser(t, 'patient', clinicId);
  await t.db.update(profiles).set({ fullName: 'Bruno Sem Plano' }).where(eq(profiles.id, browsing.userId));
  lapsed = await createCardHolder(t, clinicId, { status: 'canceled', canceledAt: new Date('2026-10-01T12:00:00Z'), expiresAt: new Date('2026-10-01T12:00:00Z') });
  await t.db.update(profiles).set({ fullName: 'Carla Cancelada' }).where(eq(profiles.id, lapsed.userId));
  // Another clinic's patient, never to be seen here.
  await createCardHolder(t, (await createClinic(t.db, 'Clínica de Fora')).clinicId);
});
afterAll(async () => t.close());

describe('Pacientes', () => {
  it('lists the programme’s patients, newest first, with their latest subscription, card and dependents', async () => {
    const page = await list();
    expect(page.total).toBe(3);
    expect(page.items.map((member) => member.fullName)).toEqual(['Carla Cancelada', 'Bruno Sem Plano', 'Joana Família']);
    const joana = page.items.find((member) => member.userId === family.userId);
    expect(joana).toMatchObject({ cpf: '52998224725', subscription: { status: 'active', planName: 'Plano Família' }, cardNumber: family.cards[0]?.number, dependents: 2 });
    expect(page.items.find((member) => member.userId === browsing.userId)).toMatchObject({ subscription: null, cardNumber: null, dependents: 0 });
  });

  it('searches by name (any accent or case), e-mail, CPF and card number, and filters by status', async () => {
    expect((await list('?q=joana%20familia')).items.map((member) => member.userId)).toEqual([family.userId]);
    expect((await list('?q=529.982')).items.map((member) => member.userId)).toEqual([family.userId]);
    const digits = family.cards[0]?.number.slice(-6) ?? '';
    expect((await list(`?q=${digits}`)).items.map((member) => member.userId)).toEqual([family.userId]);
    expect((await list('?status=none')).items.map((member) => member.userId)).toEqual([browsing.userId]);
    expect((await list('?status=canceled')).items.map((member) => member.userId)).toEqual([lapsed.userId]);
    expect((await list('?q=ninguem-com-esse-nome')).total).toBe(0);
    expect((await as(owner)('GET', '/api/clinic/members?status=perdido')).statusCode).toBe(400);
  });

  it('pages by cursor through the same rows as by page number', async () => {
    const first = await list('?pageSize=2');
    expect(first.items).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const second = await list(`?pageSize=2&page=2&after=${first.nextCursor}`);
    expect(second.items.map((member) => member.fullName)).toEqual(['Joana Família']);
    expect(second.nextCursor).toBeNull();
    expect((await list('?pageSize=2&page=2')).items.map((member) => member.userId)).toEqual(second.items.map((member) => member.userId));
  });

  it('shows one member whole: subscriptions, cards, dependents, charges, visits and validations', async () => {
    for (const [dueDate, status] of [['2026-09-10', 'received'], ['2026-10-10', 'overdue']] as const) {
      await t.db.insert(payments).values({
        clinicId,
        subscriptionId: family.subscriptionId,
        provider: 'local',
        providerPaymentId: `membros-${dueDate}`,
        method: 'pix',
        amountCents: 9990,
        dueDate,
        status,
        paidAt: status === 'received' ? new Date('2026-09-10T12:00:00Z') : null,
      });
    }
    const validation = await as(staff)('POST', '/api/clinic/card-validations', { cardToken: family.cards[0]?.number ?? '', source: 'manual' });
    expect(validation.json().valid).toBe(true);
    const visit = await as(staff)('POST', '/api/clinic/visits', { cardId: family.cards[1]?.id, serviceName: 'Consulta', category: 'consulta', priceCents: 10_000 });
    expect(visit.statusCode, visit.body).toBe(201);

    const response = await as(owner)('GET', `/api/clinic/members/${family.userId}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = response.json<MemberDetail>();
    expect(detail).toMatchObject({ fullName: 'Joana Família', phone: '11988887777', cpf: '52998224725' });
    expect(detail.subscriptions.map((row) => row.status)).toEqual(['active']);
    expect(detail.charges.map((charge) => [charge.dueDate, charge.status])).toEqual([
      ['2026-10-10', 'overdue'],
      ['2026-09-10', 'received'],
    ]);
    expect(detail.cards.map((card) => card.isDependent)).toEqual([false, true, true]);
    expect(detail.dependentList.map((dependent) => dependent.fullName)).toEqual(['Dependente 1', 'Dependente 2']);
    // The dependent's visit is the holder's programme's: it is in the detail, with the dependent's name.
    expect(detail.visits.map((row) => row.id)).toEqual([visit.json().id]);
    expect(detail.validations[0]).toMatchObject({ cardNumber: family.cards[0]?.number, result: 'valid' });
    expect(detail.validations[0]?.by).toBeTruthy();
  });

  it('is the clinic admin’s: the receptionist is refused, another clinic finds nobody', async () => {
    expect((await as(staff)('GET', '/api/clinic/members')).statusCode).toBe(403);
    expect((await as(staff)('GET', `/api/clinic/members/${family.userId}`)).statusCode).toBe(403);
    const theirs = await as(otherOwner)('GET', '/api/clinic/members');
    expect(theirs.json<Page>().items.some((member) => member.userId === family.userId)).toBe(false);
    const foreign = await as(otherOwner)('GET', `/api/clinic/members/${family.userId}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(messages.members.notFound);
  });
});
