import { describe, expect, it } from 'vitest';
import { isDue, lastOccurrence } from './schedule.ts';

const at = (iso: string) => new Date(iso);

describe('lastOccurrence (São Paulo time)', () => {
  it('daily at 3 am: today once it has passed, else yesterday', () => {
    // 10:00 in São Paulo (13:00 UTC): today's 3 am is 06:00 UTC.
    expect(lastOccurrence(at('2026-11-22T13:00:00Z'), { hour: 3 }).toISOString()).toBe('2026-11-22T06:00:00.000Z');
    // 02:00 in São Paulo (05:00 UTC): still yesterday's.
    expect(lastOccurrence(at('2026-11-22T05:00:00Z'), { hour: 3 }).toISOString()).toBe('2026-11-21T06:00:00.000Z');
    // 23:30 in São Paulo is already the next UTC day; the São Paulo date decides.
    expect(lastOccurrence(at('2026-11-23T02:30:00Z'), { hour: 3 }).toISOString()).toBe('2026-11-22T06:00:00.000Z');
    expect(lastOccurrence(at('2026-11-22T06:00:00Z'), { hour: 3 }).toISOString()).toBe('2026-11-22T06:00:00.000Z');
  });

  it('weekly on Monday at 8 am', () => {
    const monday8 = { hour: 8, weekday: 1 };
    // Sunday 22 Nov 2026, 10:00 in São Paulo: the last one was Monday 16 Nov.
    expect(lastOccurrence(at('2026-11-22T13:00:00Z'), monday8).toISOString()).toBe('2026-11-16T11:00:00.000Z');
    // Monday 23 Nov, 07:59 in São Paulo: still the 16th; at 08:00 it is the 23rd.
    expect(lastOccurrence(at('2026-11-23T10:59:00Z'), monday8).toISOString()).toBe('2026-11-16T11:00:00.000Z');
    expect(lastOccurrence(at('2026-11-23T11:00:00Z'), monday8).toISOString()).toBe('2026-11-23T11:00:00.000Z');
    // Monday 23:30 in São Paulo (Tuesday in UTC) is still that Monday's week.
    expect(lastOccurrence(at('2026-11-24T02:30:00Z'), monday8).toISOString()).toBe('2026-11-23T11:00:00.000Z');
  });
});

describe('lastOccurrence (every few minutes)', () => {
  it('falls on the whole period at or before now', () => {
    expect(lastOccurrence(at('2026-11-22T13:00:59.999Z'), { everyMinutes: 1 }).toISOString()).toBe('2026-11-22T13:00:00.000Z');
    expect(lastOccurrence(at('2026-11-22T13:01:00Z'), { everyMinutes: 1 }).toISOString()).toBe('2026-11-22T13:01:00.000Z');
    expect(lastOccurrence(at('2026-11-22T13:29:00Z'), { everyMinutes: 15 }).toISOString()).toBe('2026-11-22T13:15:00.000Z');
  });
});

describe('isDue', () => {
  it('runs once after each occurrence', () => {
    const daily = { hour: 3 };
    expect(isDue(at('2026-11-22T06:01:00Z'), null, daily)).toBe(true);
    expect(isDue(at('2026-11-22T06:01:00Z'), at('2026-11-21T06:00:30Z'), daily)).toBe(true);
    expect(isDue(at('2026-11-22T06:01:00Z'), at('2026-11-22T06:00:30Z'), daily)).toBe(false);
    // A run after 3 am (a manual backup) counts as today's.
    expect(isDue(at('2026-11-22T20:00:00Z'), at('2026-11-22T15:00:00Z'), daily)).toBe(false);
  });
});
