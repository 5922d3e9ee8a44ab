import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatMoney } from './format.ts';

describe('formatMoney', () => {
  it('formats integer cents as pt-BR reais', () => {
    expect(formatMoney(123456)).toBe('R$ 1.234,56');
    expect(formatMoney(29700)).toBe('R$ 297,00');
    expect(formatMoney(0)).toBe('R$ 0,00');
  });
});

describe('formatDate', () => {
  it('shows the São Paulo calendar day, not the UTC one', () => {
    // 02:00 UTC on 1 March is still 28 February in São Paulo (UTC-3).
    expect(formatDate('2026-03-01T02:00:00Z')).toBe('28/02/2026');
    expect(formatDateTime('2026-03-01T15:30:00Z')).toBe('01/03/2026 12:30');
  });
});
