import { describe, expect, it } from 'vitest';
import { formatTypedReais, typedReaisToCents } from './reais';

describe('typed reais', () => {
  it('reads amounts as people type them, with or without "R$"', () => {
    expect(typedReaisToCents('89,9')).toBe(8990);
    expect(typedReaisToCents('R$ 1.234,56')).toBe(123456);
    expect(typedReaisToCents(' 50 ')).toBe(5000);
  });

  it('refuses what is not an amount', () => {
    expect(typedReaisToCents('12,345')).toBeNull();
    expect(typedReaisToCents('-5')).toBeNull();
    expect(typedReaisToCents('abc')).toBeNull();
  });

  it('shows an amount with two decimals and leaves anything else as typed', () => {
    expect(formatTypedReais('89,9')).toBe('89,90');
    expect(formatTypedReais('abc')).toBe('abc');
  });
});
