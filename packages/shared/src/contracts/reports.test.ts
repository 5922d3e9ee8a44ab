import { describe, expect, it } from 'vitest';
import { periodSchema } from './reports.ts';

describe('periodSchema', () => {
  it('accepts periods within 2000-01-01 and 2100-12-31, both included', () => {
    expect(periodSchema.safeParse({ from: '2000-01-01', to: '2100-12-31' }).success).toBe(true);
    expect(periodSchema.safeParse({}).success).toBe(true);
  });

  it.each(['0001-01-01', '1999-12-31', '2101-01-01', '9999-12-31'])('refuses %s with a pt-BR message naming the range', (day) => {
    const result = periodSchema.safeParse({ from: day, to: day });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Informe uma data entre 01/01/2000 e 31/12/2100.');
  });
});
