import { describe, expect, it } from 'vitest';
import { caretAfterDigits, cardExpiryAsTyped, cardNumberAsTyped, cepAsTyped } from './mask-as-typed';

describe('masks that follow the typing', () => {
  it('groups a card number by four as it grows, and keeps at most 19 digits', () => {
    expect(cardNumberAsTyped('4')).toBe('4');
    expect(cardNumberAsTyped('42424')).toBe('4242 4');
    expect(cardNumberAsTyped('4242 4242 4242 4242')).toBe('4242 4242 4242 4242');
    expect(cardNumberAsTyped('4242-4242-4242-4242-999-1')).toBe('4242 4242 4242 4242 999');
    expect(cardNumberAsTyped('4242 ')).toBe('4242');
  });

  it('writes the expiry as MM/AA and the CEP as 00000-000, never a separator before its digit', () => {
    expect(cardExpiryAsTyped('1')).toBe('1');
    expect(cardExpiryAsTyped('12')).toBe('12');
    expect(cardExpiryAsTyped('122')).toBe('12/2');
    expect(cardExpiryAsTyped('12/29')).toBe('12/29');
    expect(cardExpiryAsTyped('12/2029')).toBe('12/20');
    expect(cepAsTyped('01310')).toBe('01310');
    expect(cepAsTyped('013101')).toBe('01310-1');
    expect(cepAsTyped('01310-100')).toBe('01310-100');
  });

  it('puts the caret after the same digits it followed', () => {
    expect(caretAfterDigits('4242 4', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('12/29', 3)).toBe(4);
    expect(caretAfterDigits('12/29', 0)).toBe(0);
  });
});
