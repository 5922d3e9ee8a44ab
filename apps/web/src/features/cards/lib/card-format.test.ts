import { describe, expect, it } from 'vitest';
import { groupCardNumber, REFRESH_MARGIN_MS, secondsLeft, tokenRefreshDelayMs, validityMonthYear } from './card-format';

describe('groupCardNumber', () => {
  it('groups the digits in fours', () => {
    expect(groupCardNumber('1234567890123456')).toBe('1234 5678 9012 3456');
  });

  it('leaves a short last group and ignores spaces already there', () => {
    expect(groupCardNumber('12345 6789')).toBe('1234 5678 9');
  });
});

describe('validityMonthYear', () => {
  it('prints MM/yyyy in São Paulo time', () => {
    expect(validityMonthYear('2027-03-15T12:00:00Z')).toBe('03/2027');
  });

  it('uses the São Paulo month at a month boundary in UTC', () => {
    // 02:00 UTC on 1 April is still 31 March in São Paulo (UTC−3).
    expect(validityMonthYear('2027-04-01T02:00:00Z')).toBe('03/2027');
  });
});

describe('tokenRefreshDelayMs', () => {
  const now = Date.parse('2026-11-24T10:00:10Z');

  it('waits until the token window ends, plus the margin', () => {
    expect(tokenRefreshDelayMs('2026-11-24T10:00:30Z', 30, now)).toBe(20_000 + REFRESH_MARGIN_MS);
  });

  it('waits one period when refreshAt is already past (a clock ahead of the server)', () => {
    expect(tokenRefreshDelayMs('2026-11-24T10:00:00Z', 30, now)).toBe(30_000);
  });

  it('waits one period when refreshAt is further than a period away (a clock behind the server)', () => {
    expect(tokenRefreshDelayMs('2026-11-24T10:05:00Z', 30, now)).toBe(30_000);
  });

  it('never waits more than 60 s, whatever the period says', () => {
    expect(tokenRefreshDelayMs('2026-11-24T09:00:00Z', 300, now)).toBe(60_000);
  });

  it('waits one period for an unreadable date', () => {
    expect(tokenRefreshDelayMs('not a date', 30, now)).toBe(30_000);
  });
});

describe('secondsLeft', () => {
  it('rounds up to whole seconds', () => {
    expect(secondsLeft(10_500, 0)).toBe(11);
    expect(secondsLeft(10_000, 0)).toBe(10);
  });

  it('is never negative', () => {
    expect(secondsLeft(1_000, 5_000)).toBe(0);
  });
});
