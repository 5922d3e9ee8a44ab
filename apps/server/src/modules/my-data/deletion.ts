/**
 * 'Solicitar exclusão' (issue 27; ADR 027, LGPD art. 18 VI and art. 16): the account is anonymised, not removed. In one
 * transaction: the open subscription is cancelled through the lifecycle (the same rules as 'Cancelar assinatura', the
 * benefits ending now; the provider's subscription is stopped and any withdrawal refund is asked there by the
 * lifecycle's follow-ups), the cards are revoked, the personal data of the patient and their dependents is blanked, the
 * CPF claims are released, the e-mail becomes a tombstone address, the password, second factor and every session go,
 * and the deletion is audited. Charges, refunds, visits, card validations, terms acceptances and the audit trail stay:
 * the law requires them, and without the name they no longer identify the person. The photo file is removed once
 * the transaction has committed.
 */
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AccountDeletionResponse } from '@carteirinha/shared/contracts/my-data';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { accounts, cardDevices, cardValidations, cards, cpfClaims, dependents, payments, profiles, pushSubscriptions, sessions, subscriptions, twoFactors, users } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { Storage } from '../../lib/storage.ts';
import { tombstoneAddressOf } from '../../lib/tombstone.ts';
import type { TenantContext } from '../../plugins/access-control.ts';
import { cancelForDeletion } from '../checkout/cancellation.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';

const m = messages.myData;

export type DeletionDeps = { db: Database; storage: Storage; jobs: FollowUpQueue; now: Date };

async function keptCounts(tx: Database, ctx: TenantContext): Promise<{ keptCharges: number; keptValidations: number }> {
  const own = tx.select({ id: subscriptions.id }).from(subscriptions).where(and(eq(subscriptions.clinicId, ctx.clinicId), eq(subscriptions.userId, ctx.userId)));
  const [charges] = await tx.select({ total: count() }).from(payments).where(and(eq(payments.clinicId, ctx.clinicId), inArray(payments.subscriptionId, own)));
  const ownCards = tx.select({ id: cards.id }).from(cards).where(and(eq(cards.clinicId, ctx.clinicId), eq(cards.holderUserId, ctx.userId)));
  const [validations] = await tx.select({ total: count() }).from(cardValidations).where(and(eq(cardValidations.clinicId, ctx.clinicId), inArray(cardValidations.cardId, ownCards)));
  return { keptCharges: charges?.total ?? 0, keptValidations: validations?.total ?? 0 };
}

async function blankPersonalData(tx: Database, ctx: TenantContext, now: Date): Promise<void> {
  await tx.update(cards).set({ revokedAt: now }).where(and(eq(cards.clinicId, ctx.clinicId), eq(cards.holderUserId, ctx.userId), isNull(cards.revokedAt)));
  // The devices of the offline card (issue 29) go with the cards; their names ("Chrome em Android") are blanked too.
  await tx
    .update(cardDevices)
    .set({ revokedAt: sql`coalesce(${cardDevices.revokedAt}, ${now.toISOString()}::timestamptz)`, name: m.deletedDeviceName })
    .where(and(eq(cardDevices.clinicId, ctx.clinicId), eq(cardDevices.userId, ctx.userId)));
  await tx.update(dependents).set({ fullName: m.deletedDependentName, cpf: null, birthDate: null, relationship: null, updatedAt: now }).where(and(eq(dependents.clinicId, ctx.clinicId), eq(dependents.holderUserId, ctx.userId)));
  await tx.update(dependents).set({ removedAt: now }).where(and(eq(dependents.clinicId, ctx.clinicId), eq(dependents.holderUserId, ctx.userId), isNull(dependents.removedAt)));
  await tx.delete(cpfClaims).where(and(eq(cpfClaims.clinicId, ctx.clinicId), eq(cpfClaims.userId, ctx.userId)));
  await tx.update(profiles).set({ fullName: m.deletedName, cpf: null, phone: null, birthDate: null, avatarUrl: null, updatedAt: now }).where(eq(profiles.id, ctx.userId));
  await tx
    .update(users)
    .set({ name: m.deletedName, email: tombstoneAddressOf(ctx.userId), emailVerified: false, image: null, twoFactorEnabled: false, deactivatedAt: now, updatedAt: now })
    .where(eq(users.id, ctx.userId));
  await tx.delete(accounts).where(eq(accounts.userId, ctx.userId));
  await tx.delete(twoFactors).where(eq(twoFactors.userId, ctx.userId));
  await tx.delete(sessions).where(eq(sessions.userId, ctx.userId));
  // Their browsers receive nothing more (issue 29).
  await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.clinicId, ctx.clinicId), eq(pushSubscriptions.userId, ctx.userId)));
}

export async function deleteMyAccount(deps: DeletionDeps, ctx: TenantContext): Promise<AccountDeletionResponse> {
  const { db, now } = deps;
  const outcome = await db.transaction(async (tx) => {
    const [user] = await tx.select({ deactivatedAt: users.deactivatedAt, photoUrl: profiles.avatarUrl }).from(users).leftJoin(profiles, eq(profiles.id, users.id)).where(eq(users.id, ctx.userId)).for('update', { of: users }).limit(1);
    if (!user || user.deactivatedAt) throw new AppError('CONFLICT');
    const cancellation = await cancelForDeletion(tx, deps.jobs, ctx, now);
    await blankPersonalData(tx, ctx, now);
    const kept = await keptCounts(tx, ctx);
    await recordAudit(tx, { actorUserId: ctx.userId, action: 'account.deleted', entity: 'user', entityId: ctx.userId, clinicId: ctx.clinicId, details: { cancellation: cancellation?.protocol ?? null, ...kept } });
    return { cancellation, kept, photoUrl: user.photoUrl };
  });
  if (outcome.photoUrl) await deps.storage.removeByUrl(outcome.photoUrl);
  return { deletedAt: now.toISOString(), cancellation: outcome.cancellation, ...outcome.kept };
}
