import { GRACE_DAYS_DEFAULT } from '@carteirinha/shared/contracts/payments';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { formatDate } from '@carteirinha/shared/format';
import { benefitsStateOf, type BenefitsFacts, type BenefitsState } from '../subscriptions/benefits.ts';

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
