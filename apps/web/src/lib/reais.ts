import { formatReaisInput, parseReais } from '@carteirinha/shared/contracts/plans';

/** What was typed, without the "R$" a user may type or paste along: "R$ 1.234,5" → "1.234,5". */
export function reaisTextOf(typed: string): string {
  return typed.replace(/^\s*R\$\s*/i, '').trim();
}

/** Reais as typed ("89,9", "R$ 1.234,56") in integer cents; null when the text is not an amount. */
export function typedReaisToCents(typed: string): number | null {
  // parseReais takes at most two decimals, so the cents are whole.
  const reais = parseReais(reaisTextOf(typed));
  return reais === null ? null : Math.round(reais * 100);
}

/** "89,9" → "89,90" when it reads as reais; anything else stays as typed, for its error. */
export function formatTypedReais(typed: string): string {
  const cents = typedReaisToCents(typed);
  return cents === null ? typed : formatReaisInput(cents);
}
