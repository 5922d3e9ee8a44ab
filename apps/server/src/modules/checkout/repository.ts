import { and, count, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { clinics, payments, plans, profiles, subscriptionPlans, subscriptions } from '../../db/schema.ts';

/** A subscription that holds the patient's place: one at a time per patient (and what max_patients counts). */
export const OPEN_SUBSCRIPTION_STATUSES = ['pending', 'active', 'overdue'] as const;
/** Charges still waiting to be paid. */
export const OPEN_PAYMENT_STATUSES = ['pending', 'overdue'] as const;

type Scope = { clinicId: string; userId: string };
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

/** A plan a patient may subscribe to: on sale (active, and saved once by the clinic's admin, issue 25). */
export async function findActivePlan(db: Database, clinicId: string, planId: string): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(subscriptionPlans)
    .where(
      and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.clinicId, clinicId), eq(subscriptionPlans.isActive, true), eq(subscriptionPlans.awaitingReview, false)),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Serialises checkouts of one clinic for the rest of the transaction: the "one open subscription per patient" and
 * max_patients checks below read counts, and two checkouts at once must not both see room for one more.
 */
export async function lockClinicCheckouts(db: Database, clinicId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`checkout:${clinicId}`}, 0))`);
}

/**
 * Reservations left behind by a process that died between reserving and reaching the provider (no provider id, no
 * charge, older than the request timeout several times over) stop blocking the patient's next checkout.
 */
export async function deleteAbandonedReservations(db: Database, scope: Scope, olderThan: Date): Promise<void> {
  await db
    .delete(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, scope.userId),
        eq(subscriptions.clinicId, scope.clinicId),
        eq(subscriptions.status, 'pending'),
        isNull(subscriptions.providerSubscriptionId),
        lt(subscriptions.createdAt, olderThan),
        sql`not exists (select 1 from ${payments} where ${payments.subscriptionId} = ${subscriptions.id})`,
      ),
    );
}

export async function hasOpenSubscription(db: Database, scope: Scope): Promise<boolean> {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, scope.userId), eq(subscriptions.clinicId, scope.clinicId), inArray(subscriptions.status, [...OPEN_SUBSCRIPTION_STATUSES])))
    .limit(1);
  return row !== undefined;
}

/** Whether the clinic's platform plan (clinics.plan_id → plans.max_patients) has room for one more subscription. */
export async function subscriptionLimitReached(db: Database, clinicId: string): Promise<boolean> {
  const [limit] = await db
    .select({ maxPatients: plans.maxPatients })
    .from(clinics)
    .innerJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  if (limit?.maxPatients === null || limit?.maxPatients === undefined) return false;
  const [row] = await db
    .select({ open: count() })
    .from(subscriptions)
    .where(and(eq(subscriptions.clinicId, clinicId), inArray(subscriptions.status, [...OPEN_SUBSCRIPTION_STATUSES])));
  return (row?.open ?? 0) >= limit.maxPatients;
}

export async function findSubscriptionWithPlan(db: Database, clinicId: string, subscriptionId: string) {
  const [row] = await db
    .select({ subscription: subscriptions, plan: subscriptionPlans })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.clinicId, clinicId)))
    .limit(1);
  return row ?? null;
}

export async function paymentsOfSubscription(db: Database, clinicId: string, subscriptionId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.clinicId, clinicId), eq(payments.subscriptionId, subscriptionId)))
    .orderBy(desc(payments.createdAt));
}

/** The caller's charges, newest first: joined through their own subscriptions, never by a payment id alone. */
export async function listPaymentsOfPatient(db: Database, scope: Scope): Promise<PaymentRow[]> {
  const rows = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(and(eq(subscriptions.userId, scope.userId), eq(subscriptions.clinicId, scope.clinicId), eq(payments.clinicId, scope.clinicId)))
    .orderBy(desc(payments.createdAt))
    .limit(200);
  return rows.map((row) => row.payment);
}

/** One of the caller's charges; another patient's id finds nothing (404), like an unknown one. */
export async function findPaymentOfPatient(db: Database, scope: Scope, paymentId: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(subscriptions, eq(subscriptions.id, payments.subscriptionId))
    .where(and(eq(payments.id, paymentId), eq(payments.clinicId, scope.clinicId), eq(subscriptions.userId, scope.userId)))
    .limit(1);
  return row?.payment ?? null;
}

/** Who a patient's charges are between, as the receipt and the boleto print them: the clinic and the holder. */
export async function findPaymentParties(db: Database, scope: Scope): Promise<{ clinicName: string; cnpj: string; payerName: string; cpf: string | null } | null> {
  const [row] = await db
    .select({ clinicName: clinics.name, cnpj: clinics.cnpj, payerName: profiles.fullName, cpf: profiles.cpf })
    .from(clinics)
    .innerJoin(profiles, eq(profiles.id, scope.userId))
    .where(eq(clinics.id, scope.clinicId))
    .limit(1);
  return row ?? null;
}
