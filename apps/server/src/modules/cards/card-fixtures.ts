import { asc, eq } from 'drizzle-orm';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import { cards, dependents, profiles, subscriptionPlans, subscriptions } from '../../db/schema.ts';
import { createSignedInUser, type TestApp } from '../../../test/helpers.ts';
import { issueCardsForSubscription } from './issue.ts';

/** Test fixtures (not used by the app): a card holder of a clinic, with a subscription in a chosen state and its cards. */

const DAY_MS = 24 * 60 * 60 * 1000;

export type HolderOptions = {
  status?: SubscriptionStatus;
  expiresAt?: Date | null;
  canceledAt?: Date | null;
  benefitsStartAt?: Date | null;
  maxMembers?: number;
  dependents?: number;
  cpf?: string;
  /** CPFs of the dependents, in the order they are added (the rest have none). */
  dependentCpfs?: string[];
  discounts?: { consultas: number; exames: number; procedimentos: number };
};

export type Holder = { userId: string; cookie: string; subscriptionId: string; cards: Array<{ id: string; number: string; dependentId: string | null }> };

export async function createCardHolder(t: TestApp, clinicId: string, options: HolderOptions = {}): Promise<Holder> {
  const { userId, cookie } = await createSignedInUser(t, 'patient', clinicId);
  if (options.cpf) await t.db.update(profiles).set({ cpf: options.cpf }).where(eq(profiles.id, userId));
  const discounts = options.discounts ?? { consultas: 30, exames: 25, procedimentos: 20 };
  const [plan] = await t.db
    .insert(subscriptionPlans)
    .values({
      clinicId,
      name: 'Plano Família',
      priceCents: 14990,
      maxMembers: options.maxMembers ?? 1,
      discountConsultas: discounts.consultas,
      discountExames: discounts.exames,
      discountProcedimentos: discounts.procedimentos,
    })
    .returning({ id: subscriptionPlans.id });
  if (!plan) throw new Error('plan not created');
  const [subscription] = await t.db
    .insert(subscriptions)
    .values({
      clinicId,
      userId,
      planId: plan.id,
      status: options.status ?? 'active',
      startedAt: new Date(),
      expiresAt: options.expiresAt === undefined ? new Date(Date.now() + 30 * DAY_MS) : options.expiresAt,
      canceledAt: options.canceledAt ?? null,
      benefitsStartAt: options.benefitsStartAt ?? null,
    })
    .returning({ id: subscriptions.id });
  if (!subscription) throw new Error('subscription not created');
  for (let index = 0; index < (options.dependents ?? 0); index += 1) {
    await t.db.insert(dependents).values({ clinicId, holderUserId: userId, fullName: `Dependente ${index + 1}`, cpf: options.dependentCpfs?.[index] ?? null, createdAt: new Date(Date.now() + index) });
  }
  await issueCardsForSubscription(t.db, subscription.id, t.app.cardBox);
  const issued = await t.db
    .select({ id: cards.id, number: cards.number, dependentId: cards.dependentId })
    .from(cards)
    .where(eq(cards.subscriptionId, subscription.id))
    .orderBy(asc(cards.issuedAt));
  // The holder's card first.
  issued.sort((a, b) => Number(a.dependentId !== null) - Number(b.dependentId !== null));
  return { userId, cookie, subscriptionId: subscription.id, cards: issued };
}
