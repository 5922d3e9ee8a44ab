/**
 * 'Baixar meus dados' (issue 27; ADR 027, LGPD art. 18 II): everything the platform holds about the signed-in patient
 * in their clinic. The clinic's rows are read inside the tenant's scope (withTenantScope), each statement naming the
 * patient; the platform's own rows (account, profile, audit trail) by the patient's id. A card's secret (which
 * derives the QR token) and the other people's data on shared rows (who at the clinic, beyond name and role) stay out.
 */
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { MyDataExport } from '@carteirinha/shared/contracts/my-data';
import type { Database } from '../../db/client.ts';
import { auditLog, cardDevices, cardValidations, cards, clinics, dependents, payments, profiles, subscriptionPlans, subscriptions, termsAcceptances, users, visits } from '../../db/schema.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';

export type Patient = { clinicId: string; userId: string };

/** Dates as ISO instants, so the JSON reads the same in every time zone and the HTML can show them in São Paulo's. */
function plain(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]));
}

async function clinicRowsOf(tx: Database, patient: Patient) {
  const ownSubscriptions = and(eq(subscriptions.clinicId, patient.clinicId), eq(subscriptions.userId, patient.userId));
  const subscriptionRows = await tx
    .select({
      id: subscriptions.id,
      plan: subscriptionPlans.name,
      status: subscriptions.status,
      startedAt: subscriptions.startedAt,
      expiresAt: subscriptions.expiresAt,
      canceledAt: subscriptions.canceledAt,
      cancelReason: subscriptions.cancelReason,
      amountCents: subscriptions.amountCents,
      paymentMethod: subscriptions.paymentMethod,
      createdAt: subscriptions.createdAt,
    })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(ownSubscriptions)
    .orderBy(asc(subscriptions.createdAt));
  const subscriptionIds = subscriptionRows.map((row) => row.id);
  const chargeRows =
    subscriptionIds.length === 0
      ? []
      : await tx
          .select({
            id: payments.id,
            subscriptionId: payments.subscriptionId,
            method: payments.method,
            amountCents: payments.amountCents,
            dueDate: payments.dueDate,
            status: payments.status,
            paidAt: payments.paidAt,
            cardSummary: payments.cardSummary,
            periodStart: payments.periodStart,
            periodEnd: payments.periodEnd,
            refundedAt: payments.refundedAt,
            refundedCents: payments.refundedCents,
            canceledAt: payments.canceledAt,
            createdAt: payments.createdAt,
          })
          .from(payments)
          .where(and(eq(payments.clinicId, patient.clinicId), inArray(payments.subscriptionId, subscriptionIds)))
          .orderBy(asc(payments.createdAt));
  const dependentRows = await tx
    .select({ id: dependents.id, fullName: dependents.fullName, cpf: dependents.cpf, birthDate: dependents.birthDate, relationship: dependents.relationship, removedAt: dependents.removedAt, createdAt: dependents.createdAt })
    .from(dependents)
    .where(and(eq(dependents.clinicId, patient.clinicId), eq(dependents.holderUserId, patient.userId)))
    .orderBy(asc(dependents.createdAt));
  const cardRows = await tx
    .select({ id: cards.id, number: cards.number, dependentId: cards.dependentId, subscriptionId: cards.subscriptionId, issuedAt: cards.issuedAt, revokedAt: cards.revokedAt })
    .from(cards)
    .where(and(eq(cards.clinicId, patient.clinicId), eq(cards.holderUserId, patient.userId)))
    .orderBy(asc(cards.issuedAt));
  const deviceRows = await tx
    .select({ id: cardDevices.id, name: cardDevices.name, createdAt: cardDevices.createdAt, confirmedAt: cardDevices.confirmedAt, lastUsedAt: cardDevices.lastUsedAt, revokedAt: cardDevices.revokedAt })
    .from(cardDevices)
    .where(and(eq(cardDevices.clinicId, patient.clinicId), eq(cardDevices.userId, patient.userId)))
    .orderBy(asc(cardDevices.createdAt));
  const cardIds = cardRows.map((row) => row.id);
  const validationRows =
    cardIds.length === 0
      ? []
      : await tx
          .select({ id: cardValidations.id, cardId: cardValidations.cardId, deviceId: cardValidations.deviceId, method: cardValidations.method, result: cardValidations.result, createdAt: cardValidations.createdAt })
          .from(cardValidations)
          .where(and(eq(cardValidations.clinicId, patient.clinicId), inArray(cardValidations.cardId, cardIds)))
          .orderBy(asc(cardValidations.createdAt));
  const visitRows = await tx
    .select({
      id: visits.id,
      cardId: visits.cardId,
      dependentId: visits.dependentId,
      serviceName: visits.serviceName,
      category: visits.category,
      professional: visits.professional,
      status: visits.status,
      originalCents: visits.originalCents,
      discountPercent: visits.discountPercent,
      discountCents: visits.discountCents,
      finalCents: visits.finalCents,
      performedAt: visits.performedAt,
      canceledAt: visits.canceledAt,
    })
    .from(visits)
    .where(and(eq(visits.clinicId, patient.clinicId), eq(visits.patientUserId, patient.userId)))
    .orderBy(asc(visits.performedAt));
  const acceptanceRows = await tx
    .select({ id: termsAcceptances.id, termsId: termsAcceptances.termsId, subscriptionId: termsAcceptances.subscriptionId, ipAddress: termsAcceptances.ipAddress, acceptedAt: termsAcceptances.acceptedAt })
    .from(termsAcceptances)
    .where(and(eq(termsAcceptances.clinicId, patient.clinicId), eq(termsAcceptances.userId, patient.userId)))
    .orderBy(asc(termsAcceptances.acceptedAt));
  return {
    subscriptions: subscriptionRows.map(plain),
    charges: chargeRows.map(plain),
    cards: cardRows.map(plain),
    cardDevices: deviceRows.map(plain),
    dependents: dependentRows.map(plain),
    visits: visitRows.map(plain),
    cardValidations: validationRows.map(plain),
    termsAcceptances: acceptanceRows.map(plain),
  };
}

/** The audit entries the patient made or that are about their account; their details may name other people, so not those. */
async function auditEntriesOf(db: Database, patient: Patient) {
  const rows = await db
    .select({ id: auditLog.id, action: auditLog.action, entity: auditLog.entity, createdAt: auditLog.createdAt })
    .from(auditLog)
    .where(or(eq(auditLog.actorUserId, patient.userId), and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, patient.userId))))
    .orderBy(asc(auditLog.createdAt))
    .limit(5000);
  return rows.map(plain);
}

export async function exportMyData(db: Database, patient: Patient, now: Date): Promise<MyDataExport> {
  const [account] = await db
    .select({ id: users.id, name: users.name, email: users.email, createdAt: users.createdAt, lastSignInAt: users.lastSignInAt, twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, patient.userId))
    .limit(1);
  if (!account) throw new AppError('NOT_FOUND');
  const [profile] = await db
    .select({ fullName: profiles.fullName, cpf: profiles.cpf, phone: profiles.phone, birthDate: profiles.birthDate, photoUrl: profiles.avatarUrl })
    .from(profiles)
    .where(eq(profiles.id, patient.userId))
    .limit(1);
  const [clinic] = await db.select({ name: clinics.name, displayName: clinics.displayName }).from(clinics).where(eq(clinics.id, patient.clinicId)).limit(1);
  const clinicRows = await withTenantScope(db, patient.clinicId, (tx) => clinicRowsOf(tx, patient));
  return {
    generatedAt: now.toISOString(),
    clinic: { name: clinic?.displayName ?? clinic?.name ?? '' },
    account: { ...account, createdAt: account.createdAt.toISOString(), lastSignInAt: account.lastSignInAt?.toISOString() ?? null },
    profile: profile ?? null,
    ...clinicRows,
    auditEntries: await auditEntriesOf(db, patient),
  };
}
