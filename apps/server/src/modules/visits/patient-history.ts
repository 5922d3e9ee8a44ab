import { and, asc, count, desc, eq, gte, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { NextAppointment, PatientHistoryQuery, PatientPeriodQuery, PatientSavings, PatientVisit, SavingsMonth } from '@carteirinha/shared/contracts/patient-visits';
import type { Database } from '../../db/client.ts';
import { clinics, dependents, payments, subscriptions, visits } from '../../db/schema.ts';
import { withinSaoPauloDays } from '../../lib/sao-paulo-period.ts';
import { nextYearMonth } from '../../lib/sao-paulo-time.ts';
import { rowsOf, totalOf } from '../../lib/sql.ts';

/**
 * The signed-in patient's own visits and savings (issue 27: Início and Histórico). Every statement names the caller's
 * clinic and the caller as the holder, and runs inside the tenant's scope (withTenantScope), so another patient's or
 * another clinic's rows are never read. A holder's visits include those of their dependents: each one's card is the
 * holder's to pay for, so the family's savings are the holder's.
 */
type Patient = { clinicId: string; userId: string };

/** The name the clinic shows its people: where a visit happened, in the patient's words. */
const placeName = sql<string>`coalesce(${clinics.displayName}, ${clinics.name})`;

function ownVisits(patient: Patient): SQL | undefined {
  return and(eq(visits.clinicId, patient.clinicId), eq(visits.patientUserId, patient.userId));
}

/** A visit counts in the history once concluded: a cancelled one gave no discount, a waiting one has not happened. */
function historyVisits(patient: Patient, period: PatientPeriodQuery): SQL | undefined {
  return and(ownVisits(patient), eq(visits.status, 'concluido'), withinSaoPauloDays(visits.performedAt, period));
}

function visitRows(db: Database) {
  return db
    .select({
      id: visits.id,
      performedAt: visits.performedAt,
      placeName,
      serviceName: visits.serviceName,
      category: visits.category,
      dependentName: dependents.fullName,
      originalCents: visits.originalCents,
      discountPercent: visits.discountPercent,
      discountCents: visits.discountCents,
      finalCents: visits.finalCents,
    })
    .from(visits)
    .innerJoin(clinics, eq(clinics.id, visits.clinicId))
    .leftJoin(dependents, eq(dependents.id, visits.dependentId))
    .$dynamic();
}

function toPatientVisit(row: Omit<PatientVisit, 'performedAt'> & { performedAt: Date }): PatientVisit {
  return { ...row, performedAt: row.performedAt.toISOString() };
}

/** A page of the period's concluded visits, newest first (visits_patient_performed_idx), and how many there are. */
export async function patientHistoryPage(db: Database, patient: Patient, query: PatientHistoryQuery): Promise<{ items: PatientVisit[]; total: number }> {
  const rows = await visitRows(db)
    .where(historyVisits(patient, query))
    .orderBy(desc(visits.performedAt), desc(visits.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const total = await totalOf(db.select({ total: count() }).from(visits).where(historyVisits(patient, query)));
  return { items: rows.map(toPatientVisit), total };
}

/** Início's 'últimos atendimentos': the newest concluded visits. */
export async function latestPatientVisits(db: Database, patient: Patient, limit: number): Promise<PatientVisit[]> {
  const rows = await visitRows(db).where(historyVisits(patient, {})).orderBy(desc(visits.performedAt), desc(visits.id)).limit(limit);
  return rows.map(toPatientVisit);
}

/** The next visit booked ahead for the holder or a dependent, still waiting, from `now` on (Clinic portal I). */
export async function nextAppointment(db: Database, patient: Patient, now: Date): Promise<NextAppointment | null> {
  const [row] = await db
    .select({
      id: visits.id,
      performedAt: visits.performedAt,
      placeName,
      serviceName: visits.serviceName,
      professional: visits.professional,
      dependentName: dependents.fullName,
    })
    .from(visits)
    .innerJoin(clinics, eq(clinics.id, visits.clinicId))
    .leftJoin(dependents, eq(dependents.id, visits.dependentId))
    .where(and(ownVisits(patient), eq(visits.status, 'aguardando'), gte(visits.performedAt, now)))
    .orderBy(asc(visits.performedAt), asc(visits.id))
    .limit(1);
  return row ? { ...row, performedAt: row.performedAt.toISOString() } : null;
}

/** The dependents the holder covers now, by name. */
export async function coveredDependents(db: Database, patient: Patient): Promise<{ id: string; fullName: string }[]> {
  return db
    .select({ id: dependents.id, fullName: dependents.fullName })
    .from(dependents)
    .where(and(eq(dependents.clinicId, patient.clinicId), eq(dependents.holderUserId, patient.userId), isNull(dependents.removedAt)))
    .orderBy(asc(dependents.fullName), asc(dependents.id))
    .limit(50);
}

const saoPauloMonth = (column: AnyColumn) => sql<string>`to_char(${column} at time zone 'America/Sao_Paulo', 'YYYY-MM')`;

const visitMonthRow = z.object({ month: z.string(), saved: z.coerce.number().int(), original: z.coerce.number().int(), visits: z.coerce.number().int() });
const paymentMonthRow = z.object({ month: z.string(), paid: z.coerce.number().int() });

/**
 * What the patient kept of each charge: a refunded one gave back `refunded_cents` (the 7-day withdrawal keeps the
 * discounts already used), or all of it when that is null.
 */
const keptCents = sql`${payments.amountCents} - case when ${payments.status} = 'refunded' then coalesce(${payments.refundedCents}, ${payments.amountCents}) else 0 end`;

/** Charges that were paid (a refunded one was paid first), counted in the São Paulo month they were paid in. */
const PAID_OR_REFUNDED = ['confirmed', 'received', 'refunded'] as const;

/**
 * Histórico's figures for the period: total saved, number of visits, average saving (the discounts over the full
 * prices of the same visits), what was paid for the plan in the same period, and both month by month. Two
 * statements whatever the number of visits or months.
 */
export async function patientSavings(db: Database, patient: Patient, period: PatientPeriodQuery): Promise<PatientSavings> {
  const visitMonths = await rowsOf(
    db,
    sql`select ${saoPauloMonth(visits.performedAt)} as month, sum(${visits.discountCents}) as saved, sum(${visits.originalCents}) as original, count(*) as visits
        from ${visits} where ${historyVisits(patient, period)} group by 1`,
    visitMonthRow,
  );
  const paymentMonths = await rowsOf(
    db,
    sql`select ${saoPauloMonth(payments.paidAt)} as month, sum(${keptCents}) as paid
        from ${payments} inner join ${subscriptions} on ${subscriptions.id} = ${payments.subscriptionId}
        where ${and(
          eq(payments.clinicId, patient.clinicId),
          eq(subscriptions.clinicId, patient.clinicId),
          eq(subscriptions.userId, patient.userId),
          inArray(payments.status, [...PAID_OR_REFUNDED]),
          withinSaoPauloDays(payments.paidAt, period),
        )} group by 1`,
    paymentMonthRow,
  );
  const savedCents = sum(visitMonths.map((row) => row.saved));
  const originalCents = sum(visitMonths.map((row) => row.original));
  return {
    savedCents,
    visits: sum(visitMonths.map((row) => row.visits)),
    originalCents,
    averageSavingPercent: originalCents > 0 ? Math.round((savedCents * 100) / originalCents) : 0,
    paidForPlanCents: sum(paymentMonths.map((row) => row.paid)),
    months: monthSeries(
      new Map(visitMonths.map((row) => [row.month, row.saved])),
      new Map(paymentMonths.map((row) => [row.month, row.paid])),
    ),
  };
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** Every month from the first to the last that has a figure, a month without any at zero, so the chart's gaps show. */
function monthSeries(saved: Map<string, number>, paid: Map<string, number>): SavingsMonth[] {
  const months = [...saved.keys(), ...paid.keys()].sort();
  const first = months[0];
  const last = months.at(-1);
  if (!first || !last) return [];
  const series: SavingsMonth[] = [];
  for (let month = first; month <= last; month = nextYearMonth(month)) {
    series.push({ month, savedCents: saved.get(month) ?? 0, paidForPlanCents: paid.get(month) ?? 0 });
  }
  return series;
}
