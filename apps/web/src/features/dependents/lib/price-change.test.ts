import type { DependentsOverview } from '@carteirinha/shared/contracts/dependents';
import { formatMoney } from '@carteirinha/shared/format';
import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { priceChangeText } from './price-change';

const overview: DependentsOverview = {
  items: [],
  maxDependents: 3,
  addBlockedBy: null,
  planName: 'Plano Família',
  billingCycle: 'monthly',
  dependentPriceCents: 2990,
  amountCents: 14990,
  amountWithOneMoreCents: 17980,
  amountWithOneLessCents: 14990,
};

describe('priceChangeText', () => {
  it('says the price of each cycle before and after one more dependent', () => {
    expect(priceChangeText(overview, 'add')).toBe(`Com este dependente, o plano passa de ${formatMoney(14990)}/mês para ${formatMoney(17980)}/mês, a partir da próxima cobrança.`);
  });

  it('says the price does not change when dependents cost nothing more', () => {
    expect(priceChangeText(overview, 'remove')).toBe(messages.dependents.priceUnchanged);
    expect(priceChangeText({ ...overview, amountWithOneMoreCents: 14990 }, 'add')).toBe(messages.dependents.priceUnchanged);
  });
});
