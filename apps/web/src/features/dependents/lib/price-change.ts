import type { DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { formatMoney } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { cycleSuffix } from '../../subscriptions/lib/plan-display';

const m = messages.dependents;

/** What adding or removing one dependent does to the price of each cycle, in words, before the patient confirms. */
export function priceChangeText(overview: DependentsOverview, change: 'add' | 'remove'): string {
  const to = change === 'add' ? overview.amountWithOneMoreCents : overview.amountWithOneLessCents;
  if (to === overview.amountCents) return m.priceUnchanged;
  const suffix = overview.billingCycle ? cycleSuffix(overview.billingCycle) : '';
  const template = change === 'add' ? m.priceAfterAdd : m.priceAfterRemove;
  return formatMessage(template, { from: `${formatMoney(overview.amountCents)}${suffix}`, to: `${formatMoney(to)}${suffix}` });
}
