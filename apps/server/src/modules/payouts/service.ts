import { and, count, desc, eq, sql } from 'drizzle-orm';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type {
  AdminPayoutListQuery,
  AdminPayoutPage,
  ClinicFinanceSummary,
  ClinicPayoutList,
  Payout,
  PayoutDetail,
  PayoutStatusChange,
} from '@carteirinha/shared/contracts/payouts';
import { messages } from '@carteirinha/shared/messages';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { clinics, payoutLines, payouts, payments, profiles, subscriptions, users } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { startOfSaoPauloMonth } from '../../lib/sao-paulo-time.ts';
import { rowsOf } from '../../lib/sql.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { enqueuePayoutPaidMails } from './paid-mail.ts';

const m = messages.payouts;

/** A payout's own columns, as every list and detail shows them. */
const payoutColumns = {
  id: payouts.id,
  period: payouts.period,
  attendances: payouts.attendances,
  grossCents: payouts.grossCents,
  feePercent: payouts.feePercent,
  feeCents: payouts.feeCents,
  netCents: payouts.netCents,
  feeSplitAtProvider: payouts.feeSplitAtProvider,
  status: payouts.status,
  paidAt: payouts.paidAt,
  createdAt: payouts.createdAt,
};

type PayoutRow = Omit<typeof payouts.$inferSelect, 'clinicId' | 'processingAt' | 'paidBy' | 'updatedAt'>;

/** yyyy-MM-01 → yyyy-MM. */
function yearMonthOf(period: string): string {
  return period.slice(0, 7);
}

export function payoutView(row: PayoutRow): Payout {
  return { ...row, period: yearMonthOf(row.period), paidAt: row.paidAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

/** A clinic keeps a payout a month: ten years of them is the whole list (ADR 018: a list bounded by its scope). */
const CLINIC_PAYOUTS_SHOWN = 120;

/**
 * Financeiro: the four cards — this month so far (charges received less those taken back, and concluded visits), the
 * payouts waiting, the payouts paid in the last twelve months — in one statement, and the payouts, newest first.
 */
export async function clinicPayouts(db: Database, clinicId: string, now: Date): Promise<ClinicPayoutList> {
  return withTenantScope(db, clinicId, async (tx) => {
    const monthStart = startOfSaoPauloMonth(now).toISOString();
    const yearAgo = new Date(now.getTime() - 365 * 24 * 60 * 60 * 1000).toISOString();
    const [summary] = await rowsOf(
      tx,
      sql`select
        (select coalesce(sum(amount_cents), 0) from payments where clinic_id = ${clinicId} and paid_at >= ${monthStart}::timestamptz)
          - (select coalesce(sum(coalesce(refunded_cents, amount_cents)), 0) from payments
             where clinic_id = ${clinicId} and status = 'refunded' and paid_at is not null and refunded_at >= ${monthStart}::timestamptz) as month_gross,
        (select count(*) from visits where clinic_id = ${clinicId} and status = 'concluido' and performed_at >= ${monthStart}::timestamptz
           and performed_at <= ${now.toISOString()}::timestamptz) as month_attendances,
        (select coalesce(sum(net_cents), 0) from payouts where clinic_id = ${clinicId} and status <> 'pago') as pending_net,
        (select coalesce(sum(net_cents), 0) from payouts where clinic_id = ${clinicId} and status = 'pago' and paid_at >= ${yearAgo}::timestamptz) as paid_net,
        exists (select 1 from clinic_settings where clinic_id = ${clinicId} and asaas_api_key_encrypted is not null) as split`,
      z.object({
        month_gross: z.coerce.number(),
        month_attendances: z.coerce.number(),
        pending_net: z.coerce.number(),
        paid_net: z.coerce.number(),
        split: z.boolean(),
      }),
    );
    const figures: ClinicFinanceSummary = {
      monthGrossCents: summary?.month_gross ?? 0,
      monthAttendances: summary?.month_attendances ?? 0,
      pendingNetCents: summary?.pending_net ?? 0,
      paidNetCents: summary?.paid_net ?? 0,
      feeSplitAtProvider: summary?.split ?? false,
      feePercent: PLATFORM_FEE_PERCENT,
    };
    const rows = await tx.select(payoutColumns).from(payouts).where(eq(payouts.clinicId, clinicId)).orderBy(desc(payouts.period)).limit(CLINIC_PAYOUTS_SHOWN);
    return { summary: figures, items: rows.map(payoutView) };
  });
}

/**
 * One payout of the clinic with its lines (charges received, refunds, chargebacks); 404 for another clinic's. Read as
 * the platform, filtered by the clinic, like the visits list: the patients' names live in tables the tenant role does
 * not read.
 */
export async function clinicPayoutDetail(db: Database, clinicId: string, payoutId: string): Promise<PayoutDetail> {
  const [row] = await db
    .select(payoutColumns)
    .from(payouts)
    .where(and(eq(payouts.id, payoutId), eq(payouts.clinicId, clinicId)))
    .limit(1);
  if (!row) throw new AppError('NOT_FOUND', m.notFound);
  const lines = await db
    .select({
      id: payoutLines.id,
      kind: payoutLines.kind,
      occurredAt: payoutLines.occurredAt,
      amountCents: payoutLines.amountCents,
      patientName: sql<string>`coalesce(${profiles.fullName}, ${users.name})`,
      carriedFromPeriod: payoutLines.carriedFromPeriod,
    })
    .from(payoutLines)
    .innerJoin(payments, eq(payments.id, payoutLines.paymentId))
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(and(eq(payoutLines.payoutId, row.id), eq(payoutLines.clinicId, clinicId)))
    .orderBy(payoutLines.occurredAt, payoutLines.id);
  return {
    ...payoutView(row),
    lines: lines.map((line) => ({
      ...line,
      occurredAt: line.occurredAt.toISOString(),
      carriedFromPeriod: line.carriedFromPeriod ? yearMonthOf(line.carriedFromPeriod) : null,
    })),
  };
}

/** The platform admin's Repasses: every clinic's payouts, newest month first, waiting ones first within a month. */
export async function adminPayouts(db: Database, query: AdminPayoutListQuery): Promise<AdminPayoutPage> {
  const where = query.status ? eq(payouts.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...payoutColumns, clinicId: payouts.clinicId, clinicName: clinics.name })
      .from(payouts)
      .innerJoin(clinics, eq(clinics.id, payouts.clinicId))
      .where(where)
      .orderBy(desc(payouts.period), sql`${payouts.status} = 'pago'`, clinics.name, payouts.id)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(payouts).where(where),
  ]);
  return {
    items: rows.map((row) => ({ ...payoutView(row), clinicId: row.clinicId, clinicName: row.clinicName })),
    total: total?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/**
 * The admin moves a payout on: pendente → processando → pago, or straight to pago. Audited, and a payout paid is told
 * to the clinic's admins by e-mail (durable jobs written in the same transaction). A payout already paid, or one whose
 * fee went by split (nothing to transfer), is not moved again.
 */
export async function changePayoutStatus(
  db: Database,
  jobs: Pick<JobRunner, 'enqueue'>,
  actor: { userId: string },
  payoutId: string,
  change: PayoutStatusChange,
  now: Date,
): Promise<Payout> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ...payoutColumns, clinicId: payouts.clinicId })
      .from(payouts)
      .where(eq(payouts.id, payoutId))
      .for('update')
      .limit(1);
    if (!row) throw new AppError('NOT_FOUND', m.notFound);
    if (row.feeSplitAtProvider) throw new AppError('CONFLICT', m.splitNothingToPay);
    if (row.status === 'pago') throw new AppError('CONFLICT', m.alreadyPaid);
    if (row.status === change.status) return payoutView(row);
    const paid = change.status === 'pago';
    const [updated] = await tx
      .update(payouts)
      .set({
        status: change.status,
        ...(paid ? { paidAt: now, paidBy: actor.userId } : { processingAt: now }),
        updatedAt: now,
      })
      .where(eq(payouts.id, row.id))
      .returning(payoutColumns);
    if (!updated) throw new AppError('NOT_FOUND', m.notFound);
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: paid ? 'payout.paid' : 'payout.processing',
      entity: 'payout',
      entityId: row.id,
      clinicId: row.clinicId,
      details: { period: yearMonthOf(row.period), from: row.status, netCents: row.netCents },
    });
    if (paid) await enqueuePayoutPaidMails(jobs, tx, row.clinicId, row.id);
    return payoutView(updated);
  });
}
