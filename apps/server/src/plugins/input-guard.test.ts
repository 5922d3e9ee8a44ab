import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH, unacceptableInput } from './input-guard.ts';

/** `[[…[value]…]]`, `depth` arrays deep. */
function nested(depth: number, value: unknown = 'x'): unknown {
  let current: unknown = value;
  for (let level = 0; level < depth; level += 1) current = [current];
  return current;
}

describe('unacceptableInput', () => {
  it('finds a NUL in any string or key, however deep', () => {
    expect(unacceptableInput('a\u0000b')).toBe('nul');
    expect(unacceptableInput({ q: ['ok', { name: 'x\u0000' }] })).toBe('nul');
    expect(unacceptableInput({ ['chave\u0000']: 1 })).toBe('nul');
    expect(unacceptableInput(nested(10, '\u0000'))).toBe('nul');
  });

  it('accepts ordinary input, unicode and the text "%00" included', () => {
    expect(unacceptableInput({ name: 'Clínica São José 😀', q: '%00', tags: ['a'], n: 1, ok: true, none: null })).toBeNull();
    expect(unacceptableInput(undefined)).toBeNull();
    expect(unacceptableInput(nested(MAX_INPUT_DEPTH - 1))).toBeNull();
  });

  it('refuses nesting deeper than any contract, without overflowing its own stack', () => {
    expect(unacceptableInput(nested(MAX_INPUT_DEPTH + 1))).toBe('depth');
    expect(unacceptableInput(JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`))).toBe('depth');
  });
});
