import { describe, expect, it } from 'vitest';
import { formatPlanPrice, planFormSchema } from './plans.ts';

const base = { name: 'Enterprise', features: 'SLA garantido' };

describe('planFormSchema price', () => {
  it('reads reais with a point or a comma', () => {
    expect(planFormSchema.parse({ ...base, price: '297' }).price).toBe(297);
    expect(planFormSchema.parse({ ...base, price: ' 89,90 ' }).price).toBe(89.9);
    expect(planFormSchema.parse({ ...base, price: 0 }).price).toBe(0);
  });

  it('takes an empty or null price as "sob consulta"', () => {
    expect(planFormSchema.parse({ ...base, price: '' }).price).toBeNull();
    expect(planFormSchema.parse({ ...base, price: '   ' }).price).toBeNull();
    expect(planFormSchema.parse({ ...base, price: null }).price).toBeNull();
  });

  it('refuses a non-numeric or negative price, and a missing one', () => {
    for (const price of ['abc', '-1', -0.01, '1e', undefined]) {
      const result = planFormSchema.safeParse({ ...base, price });
      expect(result.success, String(price)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Preço deve ser um número maior ou igual a zero');
    }
  });
});

describe('formatPlanPrice', () => {
  it('shows the price in reais, or "Sob consulta" without one', () => {
    expect(formatPlanPrice(29_700)).toBe('R$ 297,00');
    expect(formatPlanPrice(null)).toBe('Sob consulta');
  });
});
