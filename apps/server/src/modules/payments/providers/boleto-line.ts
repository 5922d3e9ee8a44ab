import { createHash } from 'node:crypto';

/**
 * The linha digitável of a "cobrança bancária" boleto (Carta-Circular BCB nº 2.926/2000), built from the amount and
 * the due date so that the local provider's printable boleto reads like a real one: 47 digits, the three module-10
 * field check digits and the module-11 barcode check digit, amount and "fator de vencimento" in their places.
 * The bank code 000 is not assigned to any bank: no bank will take this slip for a real one.
 */
const LOCAL_BANK_CODE = '000';
const CURRENCY_REAL = '9';
/** FEBRABAN's base date for the fator de vencimento; the factor runs 1000–9999 and restarts at 1000 (22/02/2025). */
const FACTOR_BASE_UTC = Date.UTC(1997, 9, 7);
const DAY_MS = 86_400_000;

/** Module 10 with weights 2,1,2,1… from the right, the digits of each product summed (the field check digits). */
function module10(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((char, index) => {
    const product = Number(char) * (index % 2 === 0 ? 2 : 1);
    sum += product > 9 ? product - 9 : product;
  });
  return (10 - (sum % 10)) % 10;
}

/** Module 11 with weights 2–9 from the right; 0, 10 and 11 become 1 (the barcode's general check digit). */
function module11(digits: string): number {
  let sum = 0;
  [...digits].reverse().forEach((char, index) => {
    sum += Number(char) * (2 + (index % 8));
  });
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

/** The 4-digit fator de vencimento of a yyyy-MM-dd day. */
export function dueDateFactor(dueDate: string): string {
  const [year, month, day] = dueDate.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined) throw new RangeError(`not a day: ${dueDate}`);
  const days = Math.round((Date.UTC(year, month - 1, day) - FACTOR_BASE_UTC) / DAY_MS);
  if (days < 1000) throw new RangeError(`due date before the factor scheme: ${dueDate}`);
  return String(((days - 1000) % 9000) + 1000);
}

/** 25 digits of "campo livre" derived from the charge id: the same charge always prints the same line. */
function freeFieldOf(reference: string): string {
  const hash = createHash('sha256').update(reference).digest();
  return [...hash.subarray(0, 25)].map((byte) => String(byte % 10)).join('');
}

/** The 47-digit linha digitável (digits only, as Asaas's identificationField) for an amount in cents and a due day. */
export function boletoDigitableLine(input: { amountCents: number; dueDate: string; reference: string }): string {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 9_999_999_999) {
    throw new RangeError(`amount out of a boleto's range: ${input.amountCents}`);
  }
  const factor = dueDateFactor(input.dueDate);
  const amount = String(input.amountCents).padStart(10, '0');
  const free = freeFieldOf(input.reference);
  const head = `${LOCAL_BANK_CODE}${CURRENCY_REAL}`;
  const checkDigit = module11(`${head}${factor}${amount}${free}`);
  const field1 = `${head}${free.slice(0, 5)}`;
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  return `${field1}${module10(field1)}${field2}${module10(field2)}${field3}${module10(field3)}${checkDigit}${factor}${amount}`;
}
