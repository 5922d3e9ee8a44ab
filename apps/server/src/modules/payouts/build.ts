import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { PLATFORM_FEE_PERCENT } from '@carteirinha/shared/constants';
import type { Database } from '../../db/client.ts';
import { nextYearMonth, saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { rowsOf } from '../../lib/sql.ts';

const idRow = z.object({ id: z.string() });

/** A São Paulo month: its first day (yyyy-MM-01) and the instants it starts and ends. */
export type PayoutMonth = { period: string; start: Date; end: Date };

/** The São Paulo month `yyyy-MM`. */
export function payoutMonth(yearMonth: string): PayoutMonth {
  const period = `${yearMonth}-01`;
  return { period, start: saoPauloMidnight(period), end: saoPauloMidnight(`${nextYearMonth(yearMonth)}-01`) };
}

/** The São Paulo month before the one `now` falls in: the month the monthly job closes. */
export function previousPayoutMonth(now: Date): PayoutMonth {
  const [year = 1970, month = 1] = saoPauloDay(now).split('-').map(Number);
  return payoutMonth(month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`);
}

/**
 * The clinics with money of their own not yet in any payout, up to the month's end: charges paid, and money taken back
 * (refund, chargeback) of a paid charge. Counted from the clinic's first payout (or this month, for its first one), so
 * the charges before payouts existed are not all swept into one.
 */
async function clinicsWithUnpaidMoney(db: Database, month: PayoutMonth): Promise<string[]> {
  const rows = await rowsOf(
    db,
    sql`
      select c.id from clinics c
      where not exists (select 1 from payouts po where po.clinic_id = c.id and po.period = ${month.period}::date)
        and exists (
          select 1 from payments pa
          where pa.clinic_id = c.id
            and ((pa.paid_at >= ${sweepFloor(sql`c.id`, month)} and pa.paid_at < ${month.end.toISOString()}::timestamptz
                  and not exists (select 1 from payout_lines l where l.payment_id = pa.id and l.kind = 'recebimento'))
              or (pa.refunded_at >= ${sweepFloor(sql`c.id`, month)} and pa.refunded_at < ${month.end.toISOString()}::timestamptz
                  and pa.paid_at is not null and pa.status = 'refunded'
                  and not exists (select 1 from payout_lines l where l.payment_id = pa.id and l.kind <> 'recebimento'))))
      order by c.id`,
    idRow,
  );
  return rows.map((row) => row.id);
}

/** Where a clinic's money starts counting: its first payout's month, or this month when it has none yet. */
function sweepFloor(clinicId: SQL, month: PayoutMonth) {
  return sql`least(${month.start.toISOString()}::timestamptz,
    coalesce((select min(po.period) from payouts po where po.clinic_id = ${clinicId})::timestamp at time zone 'America/Sao_Paulo', 'infinity'::timestamptz))`;
}

/**
 * Builds one clinic's payout of `month`, once: under a lock per clinic, a payout that exists is left alone (a
 * second process, or a second run, finds it), and each charge's receipt and its taking back are lines at most once
 * (unique by charge and kind). Money of an earlier month not yet in any payout — a late payment, a refund after that
 * month was paid — comes in as a line carried from its month; a built payout is never edited.
 *
 * The fee is the platform's 10 % of the month's gross (specification §9); with the clinic's own Asaas account the
 * split took it from each charge already, so the payout records that and is settled as it is built (nothing to
 * transfer, no fee taken twice).
 */
export async function buildClinicPayout(db: Database, clinicId: string, month: PayoutMonth, now: Date): Promise<string | null> {
  return db.transaction(async (tx) => {
    // One builder per clinic at a time (two servers' jobs, or the demo seed): the second finds the payout made.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payouts:${clinicId}`}, 0))`);
    const exists = await rowsOf(tx, sql`select id from payouts where clinic_id = ${clinicId} and period = ${month.period}::date`, idRow);
    if (exists.length > 0) return null;
    const [settings] = await rowsOf(
      tx,
      sql`select asaas_api_key_encrypted is not null as split from clinic_settings where clinic_id = ${clinicId}`,
      z.object({ split: z.boolean() }),
    );
    const split = settings?.split ?? false;
    const floor = sweepFloor(sql`${clinicId}::uuid`, month);
    const end = month.end.toISOString();
    const start = month.start.toISOString();
    const [created] = await rowsOf(
      tx,
      sql`
        insert into payouts (clinic_id, period, attendances, gross_cents, fee_percent, fee_cents, net_cents, fee_split_at_provider, created_at, updated_at)
        values (${clinicId}, ${month.period}::date, 0, 0, ${PLATFORM_FEE_PERCENT}, 0, 0, ${split}, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)
        returning id`,
      idRow,
    );
    if (!created) return null;
    const monthOf = (column: SQL) => sql`date_trunc('month', ${column} at time zone 'America/Sao_Paulo')::date`;
    await tx.execute(sql`
      insert into payout_lines (clinic_id, payout_id, payment_id, kind, occurred_at, amount_cents, carried_from_period)
      select ${clinicId}, ${created.id}, pa.id, 'recebimento', pa.paid_at, pa.amount_cents,
             case when pa.paid_at < ${start}::timestamptz then ${monthOf(sql`pa.paid_at`)} end
      from payments pa
      where pa.clinic_id = ${clinicId} and pa.paid_at >= ${floor} and pa.paid_at < ${end}::timestamptz
        and not exists (select 1 from payout_lines l where l.payment_id = pa.id and l.kind = 'recebimento')
      on conflict do nothing`);
    // Money taken back: the refunded part (the 7-day withdrawal keeps the discounts used), or the whole charge. Its
    // receipt may sit in an earlier payout: the line then says which month it came from.
    await tx.execute(sql`
      insert into payout_lines (clinic_id, payout_id, payment_id, kind, occurred_at, amount_cents, carried_from_period)
      select ${clinicId}, ${created.id}, pa.id,
             (case when coalesce(pa.provider_status, '') ilike '%chargeback%' then 'chargeback' else 'estorno' end)::payout_line_kind,
             pa.refunded_at, -coalesce(pa.refunded_cents, pa.amount_cents),
             coalesce(
               (select po.period from payout_lines r join payouts po on po.id = r.payout_id
                where r.payment_id = pa.id and r.kind = 'recebimento' and po.id <> ${created.id}),
               case when pa.refunded_at < ${start}::timestamptz then ${monthOf(sql`pa.refunded_at`)} end)
      from payments pa
      where pa.clinic_id = ${clinicId} and pa.status = 'refunded' and pa.paid_at is not null
        and pa.refunded_at >= ${floor} and pa.refunded_at < ${end}::timestamptz
        and not exists (select 1 from payout_lines l where l.payment_id = pa.id and l.kind <> 'recebimento')
      on conflict do nothing`);
    // A month in which no money moved has no payout (the job only calls for clinics with some; the seed may not).
    const [lines] = await rowsOf(tx, sql`select count(*)::int as total from payout_lines where payout_id = ${created.id}`, z.object({ total: z.coerce.number() }));
    if (!lines?.total) {
      await tx.execute(sql`delete from payouts where id = ${created.id}`);
      return null;
    }
    // Fee rounded half away from zero (numeric round), so a month of refunds gives back exactly the fee it took.
    await tx.execute(sql`
      update payouts po set
        gross_cents = t.gross,
        fee_cents = t.fee,
        net_cents = t.gross - t.fee,
        attendances = (select count(*)::int from visits v
                       where v.clinic_id = ${clinicId} and v.status = 'concluido'
                         and v.performed_at >= ${start}::timestamptz and v.performed_at < ${end}::timestamptz),
        status = case when ${split} then 'pago'::payout_status else 'pendente'::payout_status end,
        paid_at = case when ${split} then ${now.toISOString()}::timestamptz end
      from (select g.gross, round(g.gross * ${PLATFORM_FEE_PERCENT} / 100.0)::int as fee
            from (select coalesce(sum(amount_cents), 0)::int as gross from payout_lines where payout_id = ${created.id}) g) t
      where po.id = ${created.id}`);
    return created.id;
  });
}

/** Builds every clinic's payout of `month` that is due and missing; answers how many were built. */
export async function buildMonthPayouts(db: Database, month: PayoutMonth, now: Date): Promise<number> {
  let built = 0;
  for (const clinicId of await clinicsWithUnpaidMoney(db, month)) {
    if (await buildClinicPayout(db, clinicId, month, now)) built += 1;
  }
  return built;
}
