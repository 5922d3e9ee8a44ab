import { describe, expect, it } from 'vitest';
import { databaseErrorCode, isDatabaseUnavailable } from './db-errors.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is away, restarting, overloaded or timed out, however deeply wrapped', () => {
    for (const code of ['08006', '08001', '57P01', '57P02', '57P03', '53300', '57014', '55P03', '25P03', 'ECONNREFUSED', 'ECONNRESET']) {
      expect(isDatabaseUnavailable(wrapped(withCode(code))), code).toBe(true);
      expect(isDatabaseUnavailable(new Error('auth failed', { cause: wrapped(withCode(code)) })), code).toBe(true);
    }
    expect(isDatabaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('leaves the request’s own faults alone', () => {
    for (const code of ['23505', '23503', '22P02', '42601']) expect(isDatabaseUnavailable(wrapped(withCode(code))), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it('tells the code for the log', () => {
    expect(databaseErrorCode(wrapped(withCode('57P01')))).toBe('57P01');
    expect(databaseErrorCode(new Error('no code'))).toBeUndefined();
  });
});
