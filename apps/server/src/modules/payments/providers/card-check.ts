import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import { AppError } from '../../../lib/app-error.ts';

const m = messages.paymentProviders;

/** Card brands as Asaas names them (`creditCard.creditCardBrand`), with the label a payer reads. */
const BRAND_LABELS: Record<string, string> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  ELO: 'Elo',
  AMEX: 'Amex',
  HIPERCARD: 'Hipercard',
  DINERS: 'Diners',
  DISCOVER: 'Discover',
  JCB: 'JCB',
};

/** 'Visa •••• 4242': all a receipt ever shows of a card (issue 14: the number is never kept). */
export function cardSummaryOf(brand: string | null | undefined, last4: string | null | undefined): string | null {
  if (!last4) return null;
  const label = brand ? (BRAND_LABELS[brand.toUpperCase()] ?? brand) : 'Cartão';
  return `${label} •••• ${last4}`;
}

/** Elo's ranges overlap Visa's and Discover's, so they are checked first. */
const BRAND_PATTERNS: [brand: string, pattern: RegExp][] = [
  ['ELO', /^(4011(78|79)|43(1274|8935)|45(1416|7393|763[12])|50(4175|6699|67[0-7]\d|9\d{3})|627780|63(6297|6368)|650(0(3[1-3]|[4-9]\d)|[4-5]\d{2})|6516(5[2-9]|[6-7]\d)|6550([0-1]\d|2[0-6]))/],
  ['HIPERCARD', /^(606282|3841)/],
  ['AMEX', /^3[47]/],
  ['DINERS', /^3(0[0-5]|[68])/],
  ['VISA', /^4/],
  ['MASTERCARD', /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/],
  ['DISCOVER', /^6(011|5)/],
  ['JCB', /^35/],
];

export function cardBrandOf(digits: string): string | null {
  return BRAND_PATTERNS.find(([, pattern]) => pattern.test(digits))?.[0] ?? null;
}

/** The Luhn check every card number carries. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  [...digits].reverse().forEach((char, index) => {
    const value = Number(char) * (index % 2 === 1 ? 2 : 1);
    sum += value > 9 ? value - 9 : value;
  });
  return sum % 10 === 0;
}

function refuse(reason: string): never {
  throw new AppError('PAYMENT_REJECTED', formatMessage(m.rejected, { reason }));
}

/** Whether the card is still valid in the month of `now` (a card expires at the end of its month). */
function notExpired(month: number, year: number, now: Date): boolean {
  const fullYear = year < 100 ? 2000 + year : year;
  return fullYear * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

/**
 * Numbers ending in 0002 are declined, as a card network's test card would be (4000 0000 0000 0002); every other
 * well-formed, unexpired card is approved. What a sandbox does, and what the local provider needs to show both paths.
 */
export const DECLINED_TEST_CARD_SUFFIX = '0002';

/**
 * Checks a card the way a payment sandbox does: a real card number (length, Luhn), a month and year not past, a
 * 3–4 digit CVV; then approves or declines. Returns what may be kept: brand and last four digits.
 */
export function checkTestCard(card: CreditCardInput, now: Date): { brand: string | null; last4: string } {
  const digits = card.number.replace(/[\s.-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !passesLuhn(digits)) refuse(m.cardNumberInvalid);
  const month = Number(card.expiryMonth);
  const year = Number(card.expiryYear);
  const wellFormed = /^\d{1,2}$/.test(card.expiryMonth) && /^(\d{2}|\d{4})$/.test(card.expiryYear) && month >= 1 && month <= 12;
  if (!wellFormed || !notExpired(month, year, now)) refuse(m.cardExpired);
  if (!/^\d{3,4}$/.test(card.ccv)) refuse(m.cardCcvInvalid);
  if (digits.endsWith(DECLINED_TEST_CARD_SUFFIX)) refuse(m.cardDeclined);
  return { brand: cardBrandOf(digits), last4: digits.slice(-4) };
}
