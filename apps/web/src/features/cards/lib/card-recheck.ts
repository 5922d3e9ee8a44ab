import type { PatientCard } from '@carteirinha/shared/contracts/cards';

/** Reads while no card has come: a job issues them a moment after the payment is applied (ADR 013). */
const ISSUE_CHECK_MS = 2_000;
const ISSUE_CHECKS = 15;

/**
 * How soon Meu Cartão reads the cards again: every 2 s while none has come, for at most 15 reads; never once there is
 * one. A patient who opens it right after paying sees the card appear instead of 'Você ainda não tem um cartão' until
 * a reload; someone without a subscription is asked for half a minute, then no more.
 */
export function recheckWhileNoCard(cards: PatientCard[] | undefined, reads: number): number | false {
  return cards?.length === 0 && reads <= ISSUE_CHECKS ? ISSUE_CHECK_MS : false;
}
