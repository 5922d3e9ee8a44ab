import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { formatDate } from '@carteirinha/shared/format';
import type { Database } from '../../db/client.ts';
import { benefitsStateOf, type BenefitsFacts, type BenefitsState } from '../subscriptions/benefits.ts';
import { findClinicCard, type CardFacts } from './repository.ts';

export type { CardFacts } from './repository.ts';

/**
 * The one place cards ask whether a subscription's benefits apply now (validation, the patient's card and its token,
 * visits): the payments module's delinquency rule (ADR 013: overdue keeps the benefits within the clinic's grace
 * days; the carência first; a cancelled subscription until it expires).
 */
export function cardBenefitsState(subscription: BenefitsFacts, graceDays: number | null, now: Date): BenefitsState {
  return benefitsStateOf(subscription, graceDays ?? GRACE_DAYS_DEFAULT, now);
}

/** Why the patient's card is greyed, in pt-BR; null when it validates. */
export function inactiveReasonOf(state: BenefitsState, benefitsStartAt: Date | null): string | null {
  switch (state) {
    case 'active':
      return null;
    case 'waiting':
      return formatMessage(messages.cards.inactiveReasonWaiting, { date: benefitsStartAt ? formatDate(benefitsStartAt) : '' });
    case 'suspended':
      return messages.cards.inactiveReasonSuspended;
    case 'inactive':
      return messages.cards.inactiveReasonInactive;
  }
}

/**
 * A card of the clinic with its subscription's facts and the plan's discounts (null when it is not the clinic's):
 * what recording or moving a visit on it asks, before `cardBenefitsState` says whether it validates now.
 */
export function clinicCardFacts(db: Database, clinicId: string, cardId: string): Promise<CardFacts | null> {
  return findClinicCard(db, clinicId, cardId);
}
