import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { cards, dependents, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { generateCardNumber } from './card-number.ts';
import { newCardSecret } from './card-token.ts';

/** Attempts at a fresh random number when one collides with an existing card (10^11 numbers: practically never). */
const NUMBER_ATTEMPTS = 5;
const NIL_UUID = sql`'00000000-0000-0000-0000-000000000000'::uuid`;

/** A covered person: the holder (dependentId null) or one of the holder's dependents. */
type Person = { dependentId: string | null };

type Coverage = { subscriptionId: string; clinicId: string; holderUserId: string; people: Person[] };

/**
 * Who the subscription covers: the holder, then the holder's dependents still on it (not taken off) in the order
 * added, up to max_members − 1.
 */
async function coverageOf(tx: Database, subscriptionId: string): Promise<Coverage | null> {
  const [subscription] = await tx
    .select({ clinicId: subscriptions.clinicId, userId: subscriptions.userId, maxMembers: subscriptionPlans.maxMembers })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(eq(subscriptions.id, subscriptionId))
    .limit(1);
  if (!subscription) return null;
  const covered = await tx
    .select({ id: dependents.id })
    .from(dependents)
    .where(and(eq(dependents.holderUserId, subscription.userId), eq(dependents.clinicId, subscription.clinicId), isNull(dependents.removedAt)))
    .orderBy(asc(dependents.createdAt), asc(dependents.id))
    .limit(Math.max(0, subscription.maxMembers - 1));
  return {
    subscriptionId,
    clinicId: subscription.clinicId,
    holderUserId: subscription.userId,
    people: [{ dependentId: null }, ...covered.map((dependent) => ({ dependentId: dependent.id }))],
  };
}

function personIs(coverage: Coverage, person: Person) {
  return and(eq(cards.clinicId, coverage.clinicId), eq(cards.holderUserId, coverage.holderUserId), sql`coalesce(${cards.dependentId}, ${NIL_UUID}) = coalesce(${person.dependentId}::uuid, ${NIL_UUID})`);
}

/**
 * The person's card for life, pointed at this subscription and no longer suspended — unless it already follows a newer
 * subscription (a late job of an older one must not take it back). Answers whether the person had a card.
 */
async function repointCard(tx: Database, coverage: Coverage, person: Person): Promise<boolean> {
  const [card] = await tx.select({ id: cards.id, subscriptionId: cards.subscriptionId }).from(cards).where(personIs(coverage, person)).for('update').limit(1);
  if (!card) return false;
  if (card.subscriptionId === coverage.subscriptionId) {
    await tx.update(cards).set({ revokedAt: null }).where(eq(cards.id, card.id));
    return true;
  }
  const newer = sql`(select ${subscriptions.createdAt} from ${subscriptions} where ${subscriptions.id} = ${coverage.subscriptionId}) >=
    (select ${subscriptions.createdAt} from ${subscriptions} where ${subscriptions.id} = ${cards.subscriptionId})`;
  await tx.update(cards).set({ subscriptionId: coverage.subscriptionId, revokedAt: null }).where(and(eq(cards.id, card.id), newer));
  return true;
}

/** The person's card: their card for life repointed, or a new one; answers whether it is new. */
async function issueCard(tx: Database, coverage: Coverage, person: Person, box: SecretBox): Promise<boolean> {
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt += 1) {
    if (await repointCard(tx, coverage, person)) return false;
    // No conflict target: the person's unique index makes a racing second issue a no-op (repointed above on the next
    // round), and a number that collides is drawn again.
    const inserted = await tx
      .insert(cards)
      .values({
        clinicId: coverage.clinicId,
        subscriptionId: coverage.subscriptionId,
        holderUserId: coverage.holderUserId,
        dependentId: person.dependentId,
        number: generateCardNumber(),
        secretEncrypted: box.seal(newCardSecret()),
      })
      .onConflictDoNothing()
      .returning({ id: cards.id });
    if (inserted.length > 0) return true;
  }
  throw new Error('could not draw a unique card number');
}

/**
 * Issues the cards of a subscription that has just become active (the cards module's follow-up of an activation, ADR
 * 014): every person it covers — the holder and each dependent up to the plan's max_members — has one card per clinic
 * for life. A person who had one (an earlier subscription) keeps its number and secret, now following this
 * subscription; a new person gets a new number. Idempotent, so it runs again after a dependent is added. `box` seals
 * each new card's secret: the deployment's card box (createCardSecretBox). Answers how many new cards it issued.
 */
export async function issueCardsForSubscription(tx: Database, subscriptionId: string, box: SecretBox): Promise<number> {
  const coverage = await coverageOf(tx, subscriptionId);
  if (!coverage) return 0;
  let issued = 0;
  for (const person of coverage.people) if (await issueCard(tx, coverage, person, box)) issued += 1;
  return issued;
}

/** A dependent taken off the subscription: their card stops validating (the holder's goes on); re-adding restores it. */
export async function suspendDependentCard(tx: Database, subscriptionId: string, dependentId: string, now: Date): Promise<void> {
  await tx
    .update(cards)
    .set({ revokedAt: now })
    .where(and(eq(cards.subscriptionId, subscriptionId), eq(cards.dependentId, dependentId), isNull(cards.revokedAt)));
}
