import { describe, expect, it } from 'vitest';
import { CARD_NUMBER_PREFIX, digitsOfTyped, generateCardNumber, isValidCardNumber, luhnCheckDigit } from './card-number.ts';

describe('card numbers', () => {
  it('computes the Luhn digit of known numbers', () => {
    // 7992739871 → 3 is the worked example of ISO/IEC 7812-1; 4539 1488 0343 6467 is a published test number.
    expect(luhnCheckDigit('7992739871')).toBe('3');
    expect(luhnCheckDigit('453914880343646')).toBe('7');
  });

  it('generates 16 digits with the programme prefix and a valid check digit, all different', () => {
    const numbers = new Set<string>();
    for (let index = 0; index < 200; index += 1) {
      const number = generateCardNumber();
      expect(number).toMatch(/^\d{16}$/);
      expect(number.startsWith(CARD_NUMBER_PREFIX)).toBe(true);
      expect(isValidCardNumber(number)).toBe(true);
      numbers.add(number);
    }
    expect(numbers.size).toBe(200);
  });

  it('refuses a single changed digit, a swap of neighbours, another prefix and other lengths', () => {
    const number = generateCardNumber();
    const changed = `${number.slice(0, 8)}${(Number(number[8]) + 1) % 10}${number.slice(9)}`;
    expect(isValidCardNumber(changed)).toBe(false);
    const swapped = `${number.slice(0, 10)}${number[11]}${number[10]}${number.slice(12)}`;
    if (number[10] !== number[11]) expect(isValidCardNumber(swapped)).toBe(false);
    const other = `4539${number.slice(4, 15)}`;
    expect(isValidCardNumber(`${other}${luhnCheckDigit(other)}`)).toBe(false);
    expect(isValidCardNumber(number.slice(0, 15))).toBe(false);
    expect(isValidCardNumber(`${number}0`)).toBe(false);
  });

  it('reads a typed number with its grouping', () => {
    expect(digitsOfTyped('8076 1234.5678-9012')).toBe('8076123456789012');
  });
});
