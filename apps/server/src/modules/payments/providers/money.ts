/**
 * Our money is integer cents (CONVENTIONS.md); Asaas and the Pix BR Code speak reais with two decimals. The two
 * conversions live here so that no caller multiplies a float by 100 and truncates (19.99 * 100 = 1998.9999…).
 */

/** Cents → reais for a provider's JSON (`1990` → `19.9`); JSON numbers carry two decimals exactly enough. */
export function centsToReais(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`not an amount in cents: ${cents}`);
  return cents / 100;
}

/** Reais from a provider → cents, rounded to the nearest cent (`19.99` → `1999`, never `1998`). */
export function reaisToCents(reais: number): number {
  if (!Number.isFinite(reais)) throw new RangeError(`not an amount in reais: ${reais}`);
  return Math.round(reais * 100);
}
