import { describe, expect, it } from 'vitest';
import { DEFAULT_BACKOFF, exponentialBackoff } from './backoff.ts';

describe('exponentialBackoff', () => {
  it('doubles from the base after each attempt', () => {
    const backoff = exponentialBackoff({ baseMs: 1_000, maxMs: 60_000 });
    expect([1, 2, 3, 4, 5].map(backoff)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
  });

  it('never waits longer than the cap, however many attempts', () => {
    const backoff = exponentialBackoff({ baseMs: 1_000, maxMs: 60_000 });
    expect(backoff(7)).toBe(60_000);
    expect(backoff(1_000)).toBe(60_000);
  });

  it('treats a first (or nonsensical) attempt count as the base wait', () => {
    const backoff = exponentialBackoff({ baseMs: 500, maxMs: 10_000 });
    expect(backoff(0)).toBe(500);
    expect(backoff(-3)).toBe(500);
  });

  it('by default retries after 30 s, then doubles up to an hour', () => {
    expect(DEFAULT_BACKOFF(1)).toBe(30_000);
    expect(DEFAULT_BACKOFF(2)).toBe(60_000);
    expect(DEFAULT_BACKOFF(20)).toBe(60 * 60_000);
  });
});
