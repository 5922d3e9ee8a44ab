import { describe, expect, it } from 'vitest';
import { SubmitKeys } from './submit-keys';

function counter(): () => string {
  let next = 0;
  return () => `key-${++next}`;
}

describe('SubmitKeys', () => {
  it('reuses the key when the same values are sent again (a retry)', () => {
    const keys = new SubmitKeys(counter());
    expect(keys.keyFor({ name: 'Clínica', cnpj: '11222333000181' })).toBe('key-1');
    expect(keys.keyFor({ name: 'Clínica', cnpj: '11222333000181' })).toBe('key-1');
  });

  it('gives other values a new key', () => {
    const keys = new SubmitKeys(counter());
    keys.keyFor({ name: 'A' });
    expect(keys.keyFor({ name: 'B' })).toBe('key-2');
  });

  it('starts afresh after a save went through', () => {
    const keys = new SubmitKeys(counter());
    keys.keyFor({ name: 'A' });
    keys.settle();
    expect(keys.keyFor({ name: 'A' })).toBe('key-2');
  });

  it('makes UUIDs by default', () => {
    expect(new SubmitKeys().keyFor({})).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
