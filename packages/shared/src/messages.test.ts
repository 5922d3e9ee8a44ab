import { describe, expect, it } from 'vitest';
import { formatCount, messages } from './messages.ts';

describe('formatCount', () => {
  const newClinics = messages.settings.weeklyReportCounts.newClinics;

  it('agrees the words with the number (no "1 novas clínicas")', () => {
    expect(formatCount(newClinics, 1)).toBe('1 nova clínica');
    expect(formatCount(newClinics, 2)).toBe('2 novas clínicas');
    expect(formatCount(newClinics, 0)).toBe('nenhuma nova clínica');
  });

  it('writes large numbers the pt-BR way', () => {
    expect(formatCount(newClinics, 1234)).toBe('1.234 novas clínicas');
  });

  it('follows pt-BR plural rules when no zero form is given', () => {
    const plans = { one: '{count} plano', other: '{count} planos' };
    expect(formatCount(plans, 1)).toBe('1 plano');
    expect(formatCount(plans, 5)).toBe('5 planos');
  });
});
