import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { cards, dependents, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { generateCardNumber } from './card-number.ts';
import { newCardSecret } from './card-token.ts';

/** Attempts at a fresh random number when one collides with an existing card (10^11 numbers: practically never). */
const NUMBER_ATTEMPTS = 5;

/** A covered person: the holder (dependentId null) or one of the holder's dependents. */
type Person = { dependentId: string | null };

type Coverage = { subscriptionId: string; clinicId: string; holderUserId: string; people: Person[] };

/** Who the subscription covers: the holder, then the holder's dependents in the order added, up to max_members − 1. */
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
    .where(and(eq(dependents.holderUserId, subscription.userId), eq(dependents.clinicId, subscription.clinicId)))
    .orderBy(asc(dependents.createdAt), asc(dependents.id))
    .limit(Math.max(0, subscription.maxMembers - 1));
  return {
    subscriptionId,
    clinicId: subscription.clinicId,
    holderUserId: subscription.userId,
    people: [{ dependentId: null }, ...covered.map((dependent) => ({ dependentId: dependent.id }))],
  };
}

async function issueCard(tx: Database, coverage: Coverage, person: Person, box: SecretBox): Promise<void> {
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS; attempt += 1) {
    // No conflict target: the unique (subscription, person) index makes a second issue a no-op, and a number that
    // collides is retried below with a new one.
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
    if (inserted.length > 0) return;
    // Someone issued this person's card meanwhile: done. Otherwise the number collided: draw another.
    if ((await existingPeople(tx, coverage.subscriptionId)).has(personKey(person))) return;
  }
  throw new Error('could not draw a unique card number');
}

function personKey(person: Person): string {
  return person.dependentId ?? 'holder';
}

async function existingPeople(tx: Database, subscriptionId: string): Promise<Set<string>> {
  const rows = await tx.select({ dependentId: cards.dependentId }).from(cards).where(eq(cards.subscriptionId, subscriptionId));
  return new Set(rows.map((row) => personKey(row)));
}

/**
 * Issues the cards of a subscription that has just become active (issue 15): one for the holder and one per covered
 * dependent, up to the plan's max_members. Idempotent: a person who already has a card of this subscription gets no
 * second one (unique index), so it may run on every activation and after dependents are added. Works inside a
 * clinic-scoped transaction (withTenantScope) or a platform one; returns how many cards it issued. `box` seals each
 * card's secret: the deployment's card box (createCardSecretBox), passed down from buildApp.
 */
export async function issueCardsForSubscription(tx: Database, subscriptionId: string, box: SecretBox): Promise<number> {
  const coverage = await coverageOf(tx, subscriptionId);
  if (!coverage) return 0;
  const existing = await existingPeople(tx, subscriptionId);
  const missing = coverage.people.filter((person) => !existing.has(personKey(person)));
  for (const person of missing) await issueCard(tx, coverage, person, box);
  return missing.length;
}
