import { describe, expect, it } from 'vitest';
import { featuresBesidesDiscounts } from './plan-features';

const discounts = { consultas: 30, exames: 25, procedimentos: 0 };

describe('featuresBesidesDiscounts', () => {
  it('leaves out feature lines that only repeat a discount of the plan', () => {
    expect(
      featuresBesidesDiscounts(['Titular e até 3 dependentes', 'Consultas com 30% de desconto', '25 % de desconto em exames'], discounts),
    ).toEqual(['Titular e até 3 dependentes']);
  });

  it('keeps lines that say more, or another percentage, or a service without a discount', () => {
    const kept = ['Consultas com 30% de desconto e atendimento prioritário', 'Consultas com 40% de desconto', 'Procedimentos com 20% de desconto'];
    expect(featuresBesidesDiscounts(kept, discounts)).toEqual(kept);
  });
});
