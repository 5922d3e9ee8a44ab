/**
 * The 44-digit barcode of a "cobrança bancária" boleto from its 47-digit linha digitável (FEBRABAN layout, Carta-Circular
 * BCB nº 2.926/2000): the line repeats the barcode's fields in another order, with a check digit after each of its
 * first three fields. The barcode is bank + currency (4), the general check digit (1), due-date factor + amount (14),
 * and the 25-digit free field; the line carries the free field first, split across its three fields.
 * Null for anything that is not 47 digits.
 */
export function boletoBarcodeOf(digitableLine: string): string | null {
  const line = digitableLine.replace(/\D/g, '');
  if (line.length !== 47) return null;
  const bankAndCurrency = line.slice(0, 4);
  const freeField = line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
  const generalCheckDigit = line.slice(32, 33);
  const factorAndAmount = line.slice(33, 47);
  return bankAndCurrency + generalCheckDigit + factorAndAmount + freeField;
}
