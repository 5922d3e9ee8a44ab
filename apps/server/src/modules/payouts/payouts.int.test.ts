import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClinicPayoutList, PayoutDetail } from '@carteirinha/shared/contracts/payouts';
import { auditLog, clinics, clinicSettings, emailOutbox, payments, payoutLines, payouts, visits } from '../../db/schema.ts';
import { PUBLIC_URL, createClinic, createSignedInUser, createTestApp, settleWork, type TestApp } from '../../../test/helpers.ts';
import { createCardHolder, type Holder } from '../cards/card-fixtures.ts';
import { buildClinicPayout, buildMonthPayouts, payoutMonth } from './build.ts';

/**
 * Issue 26: a clinic's payout of a São Paulo month from known charges, refunds and a chargeback; money taken back
 * after a payout was paid carried into the next one; the monthly job once however often it runs; the Asaas split; the
 * admin's 'pago' audited and e-mailed in the clinic's name; one clinic never sees another's payouts.
 */
let clock = new Date('2026-04-01T02:00:00-03:00');
let t: TestApp;
let clinicA: string;
let clinicB: string;
let holderA: Holder;
let holderB: Holder;
let ownerA: { userId: string; email: string; cookie: string };
let ownerB: { userId: string; email: string; cookie: string };
let admin: { userId: string; cookie: string };

const MARCH = payoutMonth('2026-03');
const APRIL = payoutMonth('2026-04');

type Charge = { amountCents: number; paidAt?: string; refundedAt?: string; refundedCents?: number; chargeback?: boolean; status?: 'pending' };

/** A charge as the ledger leaves it: paid (received), then perhaps refunded or charged back (status refunded). */
async function charge(clinicId: string, holder: Holder, c: Charge): Promise<string> {
  const taken = c.refundedAt !== undefined;
  const [row] = await t.db
    .insert(payments)
    .values({
      clinicId,
      subscriptionId: holder.subscriptionId,
      provider: 'local',
      providerPaymentId: `payout_${randomBytes(6).toString('hex')}`,
      method: 'pix',
      amountCents: c.amountCents,
      dueDate: (c.paidAt ?? '2026-03-01').slice(0, 10),
      status: c.status ?? (taken ? 'refunded' : 'received'),
      paidAt: c.paidAt ? new Date(c.paidAt) : null,
      refundedAt: taken ? new Date(c.refundedAt ?? '') : null,
      refundedCents: c.refundedCents ?? null,
      providerStatus: c.chargeback ? 'CHARGEBACK_REQUESTED' : taken ? 'REFUNDED' : 'RECEIVED',
    })
    .returning({ id: payments.id });
  if (!row) throw new Error('charge not created');
  return row.id;
}

async function visit(clinicId: string, holder: Holder, performedAt: string, status: 'concluido' | 'cancelado' = 'concluido'): Promise<void> {
  const card = holder.cards[0];
  if (!card) throw new Error('no card');
  await t.db.insert(visits).values({
    clinicId,
    cardId: card.id,
    subscriptionId: holder.subscriptionId,
    patientUserId: holder.userId,
    serviceName: 'Consulta clínica',
    category: 'consulta',
    originalCents: 20000,
    discountPercent: 30,
    discountCents: 6000,
    finalCents: 14000,
    status,
    performedAt: new Date(performedAt),
  });
}

function get<T>(cookie: string, url: string): Promise<{ statusCode: number; body: T }> {
  return t.app.inject({ method: 'GET', url, headers: { cookie } }).then((r) => ({ statusCode: r.statusCode, body: r.json<T>() }));
}

function markAs(status: 'processando' | 'pago', payoutId: string, cookie = admin.cookie) {
  return t.app.inject({ method: 'POST', url: `/api/admin/payouts/${payoutId}/status`, headers: { cookie, origin: PUBLIC_URL }, payload: { status } });
}

async function payoutOf(clinicId: string, period: string) {
  const [row] = await t.db.select().from(payouts).where(and(eq(payouts.clinicId, clinicId), eq(payouts.period, period)));
  if (!row) throw new Error(`no payout ${period}`);
  return row;
}

let refundLater: string;

beforeAll(async () => {
  t = await createTestApp({ JOBS_ENABLED: 'false' }, { now: () => clock });
  clinicA = (await createClinic(t.db, 'Clínica Repasse A')).clinicId;
  clinicB = (await createClinic(t.db, 'Clínica Repasse B')).clinicId;
  holderA = await createCardHolder(t, clinicA);
  holderB = await createCardHolder(t, clinicB);
  ownerA = await createSignedInUser(t, 'clinic_admin', clinicA);
  ownerB = await createSignedInUser(t, 'clinic_admin', clinicB);
  admin = await createSignedInUser(t, 'admin');

  // Clinic A, March 2026 (São Paulo): four charges received, one refunded, one charged back, one partly refunded.
  refundLater = await charge(clinicA, holderA, { amountCents: 14990, paidAt: '2026-03-05T12:00:00-03:00' });
  await charge(clinicA, holderA, { amountCents: 9990, paidAt: '2026-03-10T12:00:00-03:00', refundedAt: '2026-03-20T12:00:00-03:00' });
  await charge(clinicA, holderA, { amountCents: 14990, paidAt: '2026-03-12T12:00:00-03:00', refundedAt: '2026-03-25T12:00:00-03:00', chargeback: true });
  await charge(clinicA, holderA, { amountCents: 5000, paidAt: '2026-03-15T12:00:00-03:00', refundedAt: '2026-03-28T12:00:00-03:00', refundedCents: 2000 });
  // Around it: a charge of February (before the clinic's first payout), one of April — 00:30 on 1 April in São Paulo
  // is still 31 March in UTC — and one never paid.
  await charge(clinicA, holderA, { amountCents: 7000, paidAt: '2026-02-27T12:00:00-03:00' });
  await charge(clinicA, holderA, { amountCents: 8000, paidAt: '2026-04-01T00:30:00-03:00' });
  await charge(clinicA, holderA, { amountCents: 3000, status: 'pending' });
  // Three concluded visits in March (one at 23:59 on the 31st), one cancelled, one in April.
  await visit(clinicA, holderA, '2026-03-02T09:00:00-03:00');
  await visit(clinicA, holderA, '2026-03-18T15:00:00-03:00');
  await visit(clinicA, holderA, '2026-03-31T23:59:00-03:00');
  await visit(clinicA, holderA, '2026-03-19T10:00:00-03:00', 'cancelado');
  await visit(clinicA, holderA, '2026-04-01T00:10:00-03:00');

  // Clinic B takes its charges through its own Asaas account: the split took the fee already.
  await t.db.insert(clinicSettings).values({ clinicId: clinicB, asaasApiKeyEncrypted: 'v1.selada', asaasWalletId: 'wallet-b' });
  await charge(clinicB, holderB, { amountCents: 20000, paidAt: '2026-03-08T12:00:00-03:00' });
});
afterAll(() => t.close());

describe('the monthly job builds last month once', () => {
  it('builds March on 1 April at 2 am, with every figure exact', async () => {
    await t.app.jobs.enqueueScheduled();
    await t.app.jobs.drain();
    const march = await payoutOf(clinicA, MARCH.period);
    // 14 990 + 9 990 − 9 990 + 14 990 − 14 990 + 5 000 − 2 000
    expect(march).toMatchObject({ attendances: 3, grossCents: 17990, feePercent: 10, feeCents: 1799, netCents: 16191, status: 'pendente', feeSplitAtProvider: false, paidAt: null });
    const lines = await t.db.select().from(payoutLines).where(eq(payoutLines.payoutId, march.id));
    expect(lines.map((line) => [line.kind, line.amountCents]).sort()).toEqual(
      [
        ['chargeback', -14990],
        ['estorno', -2000],
        ['estorno', -9990],
        ['recebimento', 14990],
        ['recebimento', 14990],
        ['recebimento', 5000],
        ['recebimento', 9990],
      ].sort(),
    );
    expect(lines.every((line) => line.carriedFromPeriod === null)).toBe(true);
  });

  it('runs again — the next day, and twice at once — without a second payout or a charge counted twice', async () => {
    const linesBefore = (await t.db.select().from(payoutLines)).length;
    clock = new Date('2026-04-02T02:00:00-03:00');
    await t.app.jobs.enqueueScheduled();
    await t.app.jobs.drain();
    const [one, two] = await Promise.all([buildMonthPayouts(t.db, MARCH, clock), buildMonthPayouts(t.db, MARCH, clock)]);
    expect((one ?? 0) + (two ?? 0)).toBe(0);
    expect(await buildClinicPayout(t.db, clinicA, MARCH, clock)).toBeNull();
    expect(await t.db.select().from(payouts).where(eq(payouts.clinicId, clinicA))).toHaveLength(1);
    expect(await t.db.select().from(payoutLines)).toHaveLength(linesBefore);
  });

  it("records the Asaas split: the fee went at each charge, so the payout is settled as built and can't be paid again", async () => {
    const march = await payoutOf(clinicB, MARCH.period);
    expect(march).toMatchObject({ grossCents: 20000, feeCents: 2000, netCents: 18000, feeSplitAtProvider: true, status: 'pago' });
    expect(march.paidAt?.toISOString()).toBe(new Date('2026-04-01T02:00:00-03:00').toISOString());
    const refused = await markAs('pago', march.id);
    expect(refused.statusCode).toBe(409);
    const list = await get<ClinicPayoutList>(ownerB.cookie, '/api/clinic/payouts');
    expect(list.body.summary.feeSplitAtProvider).toBe(true);
    expect(list.body.items[0]).toMatchObject({ period: '2026-03', feeSplitAtProvider: true, status: 'pago' });
  });
});

describe('the platform admin pays a payout', () => {
  it('processando, then pago: audited, and the clinic admin is told by e-mail in the clinic name, linking to its host', async () => {
    const march = await payoutOf(clinicA, MARCH.period);
    clock = new Date('2026-04-06T10:00:00-03:00');
    const processing = await markAs('processando', march.id);
    expect(processing.statusCode, processing.body).toBe(200);
    expect(processing.json()).toMatchObject({ status: 'processando', paidAt: null });
    // The clinic cannot mark its own payout.
    expect((await markAs('pago', march.id, ownerA.cookie)).statusCode).toBe(403);
    const paid = await markAs('pago', march.id);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'pago', paidAt: clock.toISOString() });
    expect((await markAs('pago', march.id)).statusCode).toBe(409);

    const audits = await t.db.select().from(auditLog).where(and(eq(auditLog.entity, 'payout'), eq(auditLog.entityId, march.id)));
    expect(audits.map((row) => [row.action, row.actorUserId, row.clinicId]).sort()).toEqual(
      [
        ['payout.paid', admin.userId, clinicA],
        ['payout.processing', admin.userId, clinicA],
      ].sort(),
    );

    await settleWork(t);
    const paidMails = (to: string) => t.db.select().from(emailOutbox).where(and(eq(emailOutbox.to, to), like(emailOutbox.subject, 'Repasse%')));
    const mails = await paidMails(ownerA.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const [clinic] = await t.db.select({ slug: clinics.slug }).from(clinics).where(eq(clinics.id, clinicA));
    expect(mail?.subject).toBe('Repasse de 03/2026 pago — Clínica Repasse A');
    expect(mail?.text).toContain('R$ 161,91');
    expect(mail?.text).toContain(`http://${clinic?.slug}.localhost:3999/clinica/financeiro`);
    for (const part of [mail?.subject, mail?.text]) expect(part).not.toContain('Carteirinha');
    // Nobody of the other clinic heard of it.
    expect(await paidMails(ownerB.email)).toHaveLength(0);

    const list = await get<ClinicPayoutList>(ownerA.cookie, '/api/clinic/payouts');
    expect(list.body.items[0]).toMatchObject({ period: '2026-03', status: 'pago', paidAt: clock.toISOString(), netCents: 16191 });
    expect(list.body.summary).toMatchObject({ pendingNetCents: 0, paidNetCents: 16191, feeSplitAtProvider: false, feePercent: 10 });
  });
});

describe('money taken back after a payout was paid', () => {
  it('goes into the next payout as a negative line; the paid one is never edited', async () => {
    const paidMarch = await payoutOf(clinicA, MARCH.period);
    // April: the charge of 5 March is refunded after March was paid, and a payment of 31 March is recorded late.
    await t.db.update(payments).set({ status: 'refunded', refundedAt: new Date('2026-04-10T12:00:00-03:00'), providerStatus: 'REFUNDED' }).where(eq(payments.id, refundLater));
    await charge(clinicA, holderA, { amountCents: 1000, paidAt: '2026-03-31T23:00:00-03:00' });

    clock = new Date('2026-04-15T12:00:00-03:00');
    const midApril = await get<ClinicPayoutList>(ownerA.cookie, '/api/clinic/payouts');
    // April so far: 8 000 received (00:30 on 1 April), 14 990 refunded; the visit of 00:10 on 1 April.
    expect(midApril.body.summary).toMatchObject({ monthGrossCents: 8000 - 14990, monthAttendances: 1 });

    clock = new Date('2026-05-01T02:00:00-03:00');
    await t.app.jobs.enqueueScheduled();
    await t.app.jobs.drain();
    const april = await payoutOf(clinicA, APRIL.period);
    // 8 000 − 14 990 + 1 000 (late, carried from March): a month that gives back more than it took, fee included.
    expect(april).toMatchObject({ attendances: 1, grossCents: -5990, feeCents: -599, netCents: -5391, status: 'pendente' });
    expect(await payoutOf(clinicA, MARCH.period)).toEqual(paidMarch);

    const detail = await get<PayoutDetail>(ownerA.cookie, `/api/clinic/payouts/${april.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body.lines.map((line) => [line.kind, line.amountCents, line.carriedFromPeriod])).toEqual([
      ['recebimento', 1000, '2026-03'],
      ['recebimento', 8000, null],
      ['estorno', -14990, '2026-03'],
    ]);
    expect(detail.body.lines.every((line) => line.patientName.length > 0)).toBe(true);
  });
});

describe('tenant isolation and the admin list', () => {
  it("a clinic sees its own payouts only; another clinic's payout is not found", async () => {
    const ofB = await payoutOf(clinicB, MARCH.period);
    const list = await get<ClinicPayoutList>(ownerA.cookie, '/api/clinic/payouts');
    expect(list.body.items.map((item) => item.period)).toEqual(['2026-04', '2026-03']);
    expect(list.body.items.some((item) => item.id === ofB.id)).toBe(false);
    expect((await get(ownerA.cookie, `/api/clinic/payouts/${ofB.id}`)).statusCode).toBe(404);
  });

  it('the admin sees every clinic, filtered by status', async () => {
    const all = await get<{ items: Array<{ clinicName: string; period: string; status: string }>; total: number }>(admin.cookie, '/api/admin/payouts');
    expect(all.body.total).toBe(3);
    expect(all.body.items.map((item) => [item.period, item.clinicName])).toEqual([
      ['2026-04', 'Clínica Repasse A'],
      ['2026-03', 'Clínica Repasse A'],
      ['2026-03', 'Clínica Repasse B'],
    ]);
    const waiting = await get<{ items: Array<{ period: string }>; total: number }>(admin.cookie, '/api/admin/payouts?status=pendente');
    expect(waiting.body.items.map((item) => item.period)).toEqual(['2026-04']);
  });
});
