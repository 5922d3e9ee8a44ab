import { describe, expect, it } from 'vitest';
import { distinctFeatures, mrrChangeLabel, planLimitLabel } from './plan-labels';

describe('plan labels', () => {
  it('shows a missing limit as unlimited', () => {
    expect(planLimitLabel(100)).toBe('100');
    expect(planLimitLabel(null)).toBe('Ilimitado');
  });

  it('signs the MRR change and hides it when there is nothing to compare with', () => {
    expect(mrrChangeLabel(12)).toBe('+12% vs mês anterior');
    expect(mrrChangeLabel(0)).toBe('0% vs mês anterior');
    expect(mrrChangeLabel(-5)).toBe('-5% vs mês anterior');
    expect(mrrChangeLabel(null)).toBeUndefined();
  });
});

describe('distinctFeatures', () => {
  it('lists each feature once, in the order the plans first name it', () => {
    const plans = [{ features: ['Domínio próprio', 'Suporte por email'] }, { features: ['Domínio próprio', 'App mobile'] }, { features: [] }];
    expect(distinctFeatures(plans)).toEqual(['Domínio próprio', 'Suporte por email', 'App mobile']);
  });
});
