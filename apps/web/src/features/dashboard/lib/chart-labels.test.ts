import { describe, expect, it } from 'vitest';
import { monthLabel, shortIsoDay } from './chart-labels';

describe('chart labels', () => {
  it('names a day by its date and month', () => {
    expect(shortIsoDay('2026-03-07')).toBe('07/03');
  });

  it('names a month as written, whatever the time zone (the first of the month never slips to the month before)', () => {
    expect(monthLabel('2026-01')).toMatch(/^jan\.? de 2026$/);
    expect(monthLabel('2025-12-01')).toMatch(/^dez\.? de 2025$/);
  });
});
