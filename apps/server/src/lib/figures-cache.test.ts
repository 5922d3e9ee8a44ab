import { describe, expect, it } from 'vitest';
import { lsnOf } from './figures-cache.ts';

describe('lsnOf', () => {
  it('orders log positions as PostgreSQL does, across the 4 GiB boundary of their low half', () => {
    expect(lsnOf('0/16B3748')).toBe(0x16b3748n);
    expect(lsnOf('16/B374D848')).toBe((0x16n << 32n) + 0xb374d848n);
    expect(lsnOf('0/FFFFFFFF') < lsnOf('1/0')).toBe(true);
    expect(lsnOf('1/0') < lsnOf('1/1')).toBe(true);
  });
});
