import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import type { Subscription, SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';

const s = messages.subscriptionPage;

/** Specification §3: billing_cycle monthly is per month; anything else is shown as per year. */
export function cycleSuffix(billingCycle: string): string {
  return billingCycle === 'monthly' ? s.perMonth : s.perYear;
}

/** "R$ 89,90/mês". */
export function planPriceLabel(plan: Pick<SubscriptionPlan, 'priceCents' | 'billingCycle'>): string {
  return `${formatMoney(plan.priceCents)}${cycleSuffix(plan.billingCycle)}`;
}

/** Subscriptions that hold the patient's place: while one is open, no second checkout (one at a time). */
const OPEN_STATUSES: readonly SubscriptionStatus[] = ['pending', 'active', 'overdue'];

export function isOpenSubscription(status: SubscriptionStatus | undefined): boolean {
  return status !== undefined && OPEN_STATUSES.includes(status);
}

/** Specification §4: the active badge is the default style, every other status the secondary one. */
export function statusBadgeVariant(status: SubscriptionStatus): 'default' | 'secondary' {
  return status === 'active' ? 'default' : 'secondary';
}

/**
 * When an ended subscription (cancelled or expired) ended, or null while it runs. A withdrawal ends it at once, its
 * paid-through date still ahead: then the cancellation is the end, never "Pago até" a day it no longer covers.
 */
export function endedAtOf(subscription: Pick<Subscription, 'status' | 'canceledAt' | 'expiresAt'>, now: Date): string | null {
  if (subscription.status !== 'canceled' && subscription.status !== 'expired') return null;
  const { canceledAt, expiresAt } = subscription;
  if (expiresAt && new Date(expiresAt) <= now) return expiresAt;
  return canceledAt ?? expiresAt;
}
