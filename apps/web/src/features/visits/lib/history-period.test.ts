import { describe, expect, it } from 'vitest';
import { historyPeriodDays, isHistoryPeriod, monthLabel } from './history-period';

describe('historyPeriodDays', () => {
  // 23:30 on 31 January in São Paulo is already February in UTC: the period is January's.
  const lateJanuary = new Date('2026-02-01T02:30:00Z');

  it('counts months in São Paulo time, back across a year', () => {
    expect(historyPeriodDays('thisMonth', lateJanuary)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(historyPeriodDays('lastMonth', lateJanuary)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(historyPeriodDays('lastMonth', new Date('2024-03-10T12:00:00Z'))).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(historyPeriodDays('last3', lateJanuary)).toEqual({ from: '2025-11-01', to: '2026-01-31' });
    expect(historyPeriodDays('last6', lateJanuary)).toEqual({ from: '2025-08-01', to: '2026-01-31' });
    expect(historyPeriodDays('last12', lateJanuary)).toEqual({ from: '2025-02-01', to: '2026-01-31' });
    expect(historyPeriodDays('thisYear', lateJanuary)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });

  it('leaves the whole history open', () => {
    expect(historyPeriodDays('all', lateJanuary)).toEqual({});
  });

  it('knows its choices and reads a month as mm/yyyy', () => {
    expect(isHistoryPeriod('last6')).toBe(true);
    expect(isHistoryPeriod('ontem')).toBe(false);
    expect(isHistoryPeriod(null)).toBe(false);
    expect(monthLabel('2026-03')).toBe('03/2026');
  });
});
