import { describe, expect, it } from 'vitest';
import { formatPlanPrice, formatReaisInput, parseReais, planFormSchema } from './plans.ts';

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

describe('planFormSchema limits, prices and features', () => {
  it('caps the limits so they always fit the database', () => {
    expect(planFormSchema.parse({ ...base, price: '1', maxPatients: '1000000' }).maxPatients).toBe(1_000_000);
    for (const maxPatients of ['1000001', 3_000_000_000, '1e', '-1', '0', 1.5]) {
      const result = planFormSchema.safeParse({ ...base, price: '1', maxPatients });
      expect(result.success, String(maxPatients)).toBe(false);
    }
  });

  it('refuses a price finer than a cent with the price message', () => {
    for (const price of ['10,005', 10.005, '0,001']) {
      const result = planFormSchema.safeParse({ ...base, price });
      expect(result.error?.issues[0]?.message, String(price)).toBe('Preço deve ser um número maior ou igual a zero');
    }
  });

  it('removes repeated features', () => {
    expect(planFormSchema.parse({ ...base, price: '1', features: 'A\nB\n A \nB' }).features).toEqual(['A', 'B']);
  });
});

describe('parseReais and formatReaisInput', () => {
  it('reads what pt-BR people type, and refuses the rest', () => {
    expect(parseReais('297')).toBe(297);
    expect(parseReais('297,00')).toBe(297);
    expect(parseReais('1.234,56')).toBe(1234.56);
    expect(parseReais('1234.56')).toBe(1234.56);
    expect(parseReais('1.234')).toBe(1234);
    for (const text of ['1e', '-5', '1.234.5', '12,345', 'R$ 10', '']) expect(parseReais(text), text).toBeNull();
  });

  it('shows cents with a decimal comma', () => {
    expect(formatReaisInput(29_700)).toBe('297,00');
    expect(formatReaisInput(123_456)).toBe('1234,56');
    expect(formatReaisInput(5)).toBe('0,05');
  });
});
