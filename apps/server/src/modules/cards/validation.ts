import { isValidCpf } from '@brazilian-utils/brazilian-utils';
import type { CardLookupMethod, CardValidationResult, ValidateCardRequest, ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { cardValidations } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { cardBenefitsState } from './card-benefits.ts';
import { digitsOfTyped, isValidCardNumber } from './card-number.ts';
import { cardCodeMatches, parseCardToken } from './card-token.ts';
import type { CardFacts, CardLookups } from './repository.ts';

/** What the receptionist's input asks for: a card by its QR token, its printed number, or its person's CPF. */
type CardQuery =
  | { method: 'token'; number: string; code: string }
  | { method: 'number'; number: string }
  | { method: 'cpf'; cpf: string }
  | { method: CardLookupMethod; unreadable: true };

/** Reads `cardToken`: a token of ours, else digits (spaces, dots and dashes ignored) of a card number or — typed — a CPF. */
export function cardQueryOf(input: ValidateCardRequest): CardQuery {
  const token = parseCardToken(input.cardToken);
  if (token) return { method: 'token', ...token };
  const digits = digitsOfTyped(input.cardToken);
  if (isValidCardNumber(digits)) return { method: 'number', number: digits };
  if (input.source === 'manual' && digits.length === 11 && /^\d+$/.test(digits) && isValidCpf(digits)) return { method: 'cpf', cpf: digits };
  return { method: unreadableMethodOf(input.source, digits), unreadable: true };
}

/** How the audit row names input that matches nothing we issue: what the receptionist most likely meant. */
function unreadableMethodOf(source: ValidateCardRequest['source'], digits: string): CardLookupMethod {
  if (source === 'manual' && digits.length === 11) return 'cpf';
  return source === 'manual' || /^\d{16}$/.test(digits) ? 'number' : 'token';
}

type Outcome = { result: CardValidationResult; card: CardFacts | null };

async function outcomeOf(query: CardQuery, clinicId: string, deps: ValidationDeps, now: Date): Promise<Outcome> {
  if ('unreadable' in query) return { result: 'not_found', card: null };
  const card = query.method === 'cpf' ? await deps.lookups.byCpf(clinicId, query.cpf) : await deps.lookups.byNumber(clinicId, query.number);
  if (!card) return { result: 'not_found', card: null };
  // A wrong or stale code is the same answer as an unknown card (no hint of which); the audit row keeps the card.
  if (query.method === 'token' && !cardCodeMatches(deps.box.open(card.secretEncrypted), query.code, now)) return { result: 'not_found', card };
  if (card.revokedAt !== null) return { result: 'not_found', card };
  const state = cardBenefitsState(card, card.graceDays, now);
  return { result: state === 'active' ? 'valid' : 'inactive', card };
}

/** The answer: for a valid card what the receptionist needs to apply the discount, and nothing more (LGPD). */
function answerOf({ result, card }: Outcome): ValidateCardResponse {
  if (result === 'not_found' || !card) return { valid: false, outcome: 'not_found', message: messages.cards.invalid };
  if (result === 'inactive') return { valid: false, outcome: 'inactive', message: messages.cards.inactiveSubscription };
  return {
    valid: true,
    outcome: 'valid',
    message: messages.cards.valid,
    // Benefits apply now, so the standing shown is 'active': an overdue charge within the grace days is a payment
    // detail the clinic does not need (ADR 014).
    subscription: { planName: card.planName, status: 'active', expiresAt: card.expiresAt?.toISOString() ?? null, maxMembers: card.maxMembers },
    card: { id: card.id, number: card.number },
    person: card.dependentId
      ? { name: card.dependentName ?? card.holderName, photoUrl: null, isDependent: true }
      : { name: card.holderName, photoUrl: card.holderPhotoUrl, isDependent: false },
    discounts: { consultas: card.discountConsultas, exames: card.discountExames, procedimentos: card.discountProcedimentos },
  };
}

export type ValidationDeps = { db: Database; lookups: CardLookups; box: SecretBox };

/**
 * Validar QR Code / Validar Cartão (specification §7 validate-qrcode). One statement finds the card in the caller's
 * clinic, the code is checked in memory, and the attempt is written to card_validations — the only write.
 */
export async function validateCard(deps: ValidationDeps, caller: { clinicId: string; userId: string }, input: ValidateCardRequest, now: Date): Promise<ValidateCardResponse> {
  const query = cardQueryOf(input);
  const outcome = await outcomeOf(query, caller.clinicId, deps, now);
  await deps.db.insert(cardValidations).values({ clinicId: caller.clinicId, userId: caller.userId, cardId: outcome.card?.id ?? null, method: query.method, result: outcome.result });
  return answerOf(outcome);
}
