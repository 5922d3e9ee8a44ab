import { describe, expect, it } from 'vitest';
import { mrrChangeLabel, planLimitLabel, slaLabel, supportLabel } from './plan-labels';

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

  it('writes the SLA in pt-BR, or a dash without one', () => {
    expect(slaLabel(99.9)).toBe('99,9%');
    expect(slaLabel(99.95)).toBe('99,95%');
    expect(slaLabel(100)).toBe('100%');
    expect(slaLabel(null)).toBe('-');
  });

  it('names the support level as specification §9 does', () => {
    expect(supportLabel({ supportLevel: 'email' })).toBe('Email');
    expect(supportLabel({ supportLevel: 'priority' })).toBe('Prioritário');
    expect(supportLabel({ supportLevel: 'dedicated' })).toBe('Dedicado');
  });
});
