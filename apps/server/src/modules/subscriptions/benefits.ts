import { sql, type SQL } from 'drizzle-orm';
import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import { clinicSettings, subscriptions } from '../../db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What of a subscription decides whether its cards give the discounts now. */
export type BenefitsFacts = {
  status: SubscriptionStatus;
  /** Paid through. */
  expiresAt: Date | null;
  /** When the plan's carência ends (null: no carência recorded, benefits from activation). */
  benefitsStartAt: Date | null;
  /** Set when the patient cancelled: the benefits end at expires_at exactly, with no grace. */
  canceledAt: Date | null;
  /**
   * Set when a company pays for it outside the platform (issue 26): `expires_at` is the company's valid-until date,
   * which no late payment can be behind, so the benefits end there exactly, with no grace.
   */
  companyMembershipId?: string | null;
};

/**
 * Why a subscription's cards do or do not validate now (ADR 013 "Benefits"):
 * - `active`: status active or overdue, the carência over, and within the paid-through date plus the clinic's grace;
 * - `waiting`: paid, but the plan's carência has not ended yet;
 * - `suspended`: overdue (or active but unpaid) past the paid-through date plus the grace days; paying restores it;
 * - `inactive`: pending (never paid), canceled or expired.
 */
export type BenefitsState = 'active' | 'waiting' | 'suspended' | 'inactive';

/** The last instant the benefits last: paid-through, plus the grace unless the patient cancelled or a company pays. */
export function benefitsEndOf(subscription: Pick<BenefitsFacts, 'expiresAt' | 'canceledAt' | 'companyMembershipId'>, graceDays: number): Date | null {
  if (!subscription.expiresAt) return null;
  if (subscription.canceledAt || subscription.companyMembershipId) return subscription.expiresAt;
  return new Date(subscription.expiresAt.getTime() + graceDays * DAY_MS);
}

export function benefitsStateOf(subscription: BenefitsFacts, graceDays: number, now: Date): BenefitsState {
  if (subscription.status !== 'active' && subscription.status !== 'overdue') return 'inactive';
  const end = benefitsEndOf(subscription, graceDays);
  // No paid-through date on an active row: a subscription recorded before issue 14 (or by hand); it counts as paid.
  if (end === null && subscription.status === 'overdue') return 'suspended';
  if (end !== null && now.getTime() >= end.getTime()) return 'suspended';
  if (subscription.benefitsStartAt && now.getTime() < subscription.benefitsStartAt.getTime()) return 'waiting';
  return 'active';
}

/**
 * Whether the subscription's cards validate now: card validation (issue 15) asks this. `graceDays` is the clinic's
 * clinic_settings.grace_days (GRACE_DAYS_DEFAULT when it has no row).
 */
export function benefitsActive(subscription: BenefitsFacts, graceDays: number, now: Date): boolean {
  return benefitsStateOf(subscription, graceDays, now) === 'active';
}

/**
 * The same rule as SQL, for queries over many subscriptions: reads `subscriptions` and `clinic_settings` (left-join
 * it on the subscription's clinic; a clinic without a row has the default grace).
 */
export function benefitsActiveSql(now: Date): SQL<boolean> {
  const grace = sql`make_interval(days => coalesce(${clinicSettings.graceDays}, ${GRACE_DAYS_DEFAULT}))`;
  return sql<boolean>`(${subscriptions.status} in ('active', 'overdue')
    and (${subscriptions.benefitsStartAt} is null or ${subscriptions.benefitsStartAt} <= ${now})
    and (case
      when ${subscriptions.expiresAt} is null then ${subscriptions.status} = 'active'
      when ${subscriptions.canceledAt} is not null or ${subscriptions.companyMembershipId} is not null then ${subscriptions.expiresAt} > ${now}
      else ${subscriptions.expiresAt} + ${grace} > ${now}
    end))`;
}
