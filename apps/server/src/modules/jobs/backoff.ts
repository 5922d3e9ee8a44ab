/** How long a failed job waits before its next attempt, from the number of attempts made so far (1 after the first). */
export type Backoff = (attempts: number) => number;

/**
 * Doubles the wait after each failure, from `baseMs` up to `maxMs`: a provider that is down for an hour is asked a
 * dozen times, not thousands. No random jitter: tests drive the clock and read the exact retry time, and the few
 * jobs we have do not stampede.
 */
export function exponentialBackoff({ baseMs, maxMs }: { baseMs: number; maxMs: number }): Backoff {
  return (attempts) => {
    const exponent = Math.max(0, Math.floor(attempts) - 1);
    // 2 ** 40 is already far past any cap; bounding the exponent keeps the number finite.
    return Math.min(maxMs, baseMs * 2 ** Math.min(exponent, 40));
  };
}

/** 30 s, 1 min, 2 min … capped at an hour. */
export const DEFAULT_BACKOFF: Backoff = exponentialBackoff({ baseMs: 30_000, maxMs: 60 * 60_000 });

/** An e-mail job whose SMTP server is down for a while: 5 min, 10 min … then hourly, for most of a day. */
export const EMAIL_RETRIES = { maxAttempts: 20, backoff: exponentialBackoff({ baseMs: 5 * 60_000, maxMs: 60 * 60_000 }) };
