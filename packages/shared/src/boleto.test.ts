import { isValidBoleto } from '@brazilian-utils/brazilian-utils';
import { describe, expect, it } from 'vitest';
import { boletoBarcodeOf } from './boleto.ts';

/** FEBRABAN's module 11 over the 43 digits other than the check digit (weights 2–9 from the right; 0, 10, 11 → 1). */
function barcodeCheckDigit(barcode: string): number {
  const others = barcode.slice(0, 4) + barcode.slice(5);
  let sum = 0;
  [...others].reverse().forEach((char, index) => {
    sum += Number(char) * (2 + (index % 8));
  });
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

describe('boletoBarcodeOf', () => {
  it("reorders a bank's real linha digitável into the barcode the bank prints under it", () => {
    // Banco do Brasil's example line (also brazilian-utils' documentation), masked as a patient would copy it.
    const line = '00190.00009 01149.718601 68524.522114 6 75860000102656';
    expect(isValidBoleto(line)).toBe(true);
    const barcode = boletoBarcodeOf(line);
    expect(barcode).toBe('00196758600001026560000001149718606852452211');
    expect(barcode).toHaveLength(44);
    expect(barcodeCheckDigit(barcode ?? '')).toBe(Number(barcode?.[4]));
  });

  it('answers null for anything that is not 47 digits', () => {
    expect(boletoBarcodeOf('')).toBeNull();
    expect(boletoBarcodeOf('0019000009011497186016852452211467586000010265')).toBeNull();
    expect(boletoBarcodeOf('846100000005246100291102005460339004695895061080')).toBeNull();
  });
});
