import { describe, expect, it } from 'vitest';
import { accountDelayMs } from './sign-in-throttle.ts';

describe('the account-wide progressive delay', () => {
  it('is none up to half the ceiling, then doubles from 1 s, and never passes a minute', () => {
    expect([0, 49].map((failures) => accountDelayMs(failures, 100))).toEqual([0, 0]);
    expect([50, 51, 52, 53, 55].map((failures) => accountDelayMs(failures, 100))).toEqual([1000, 2000, 4000, 8000, 32_000]);
    expect(accountDelayMs(56, 100)).toBe(60_000);
    expect(accountDelayMs(99, 100)).toBe(60_000);
  });
});
