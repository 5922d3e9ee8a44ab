import { describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { ApiError, NetworkError } from './api';
import { shouldRetryQuery } from './query-retry';

describe('shouldRetryQuery', () => {
  it('never retries a 4xx: the error state shows at once', () => {
    for (const status of [400, 401, 403, 404, 409, 429]) expect(shouldRetryQuery(0, new ApiError(status, 'X', 'm'))).toBe(false);
  });

  it('retries a 5xx or a lost connection once, and only once', () => {
    expect(shouldRetryQuery(0, new ApiError(500, 'INTERNAL', 'm'))).toBe(true);
    expect(shouldRetryQuery(0, new ApiError(503, 'INTERNAL', 'm'))).toBe(true);
    expect(shouldRetryQuery(0, new NetworkError('failed', 'GET'))).toBe(true);
    expect(shouldRetryQuery(1, new ApiError(500, 'INTERNAL', 'm'))).toBe(false);
    expect(shouldRetryQuery(1, new NetworkError('timeout', 'GET'))).toBe(false);
  });

  it('does not retry an answer that broke its contract', () => {
    expect(shouldRetryQuery(0, new ZodError([]))).toBe(false);
  });
});
