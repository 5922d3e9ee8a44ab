import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';

type Discounts = PatientCard['discounts'];

/** The three discounts of a plan with their pt-BR labels, in the order the specification lists them. */
export function discountLines(discounts: Discounts): { label: string; percent: number }[] {
  const s = messages.cardScreens;
  return [
    { label: s.discountConsultas, percent: discounts.consultas },
    { label: s.discountExames, percent: discounts.exames },
    { label: s.discountProcedimentos, percent: discounts.procedimentos },
  ];
}
