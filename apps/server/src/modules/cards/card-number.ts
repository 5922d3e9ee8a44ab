import { randomInt } from 'node:crypto';

/**
 * The programme prefix of every printed card number: ISO/IEC 7812 major industry identifier 8 (healthcare) followed by
 * 076 (Brazil, ISO 3166 numeric). Starting with 8 also keeps the numbers out of the payment-card ranges (3–6), so
 * a card number in a log or a form is never mistaken for a credit card by a scanner or a browser.
 */
export const CARD_NUMBER_PREFIX = '8076';
export const CARD_NUMBER_LENGTH = 16;

/** The Luhn (ISO/IEC 7812-1, mod 10) check digit of `payload`: catches every single-digit typo and most swaps. */
export function luhnCheckDigit(payload: string): string {
  let sum = 0;
  // Walking from the right, the digit next to the (future) check digit is doubled, then every other one.
  for (let index = 0; index < payload.length; index += 1) {
    const digit = Number(payload[payload.length - 1 - index]);
    const doubled = index % 2 === 0 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Whether `number` is a card number of ours: 16 digits, the programme prefix and a right check digit. */
export function isValidCardNumber(number: string): boolean {
  if (number.length !== CARD_NUMBER_LENGTH || !/^\d+$/.test(number) || !number.startsWith(CARD_NUMBER_PREFIX)) return false;
  return luhnCheckDigit(number.slice(0, -1)) === number.slice(-1);
}

/** A new random card number: prefix + 11 random digits (10^11 numbers) + the Luhn digit. Uniqueness is the database's. */
export function generateCardNumber(): string {
  const randomLength = CARD_NUMBER_LENGTH - CARD_NUMBER_PREFIX.length - 1;
  let digits = '';
  for (let index = 0; index < randomLength; index += 1) digits += String(randomInt(10));
  const payload = `${CARD_NUMBER_PREFIX}${digits}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

/** What a receptionist typed, without the spaces, dots and dashes the printed grouping invites. */
export function digitsOfTyped(value: string): string {
  return value.replace(/[\s.\-/]/g, '');
}
