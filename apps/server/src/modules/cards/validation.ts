import { isValidCpf } from '@brazilian-utils/brazilian-utils';
import type { CardLookupMethod, CardValidationResult, ValidateCardRequest, ValidateCardResponse } from '@carteirinha/shared/contracts/cards';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { cardBenefitsState } from './card-benefits.ts';
import { digitsOfTyped, isValidCardNumber } from './card-number.ts';
import { offlineCodesUntil, parseDeviceToken } from '@carteirinha/shared/device-code';
import { cardCodeMatches, cardCodeWasShownWithin, parseCardToken } from './card-token.ts';
import { deviceCodeMatches, deviceCodeWasShownWithin } from './device-code.ts';
import { markCardDeviceUsed, type CardFacts, type CardLookups, type DeviceLookup, type ValidationRecorder } from './repository.ts';

/** What the receptionist's input asks for: a card by its QR token, its printed number, or its person's CPF. */
type CardQuery =
  | { method: 'token'; number: string; code: string }
  | { method: 'token'; number: string; code: string; deviceSlot: number }
  | { method: 'number'; number: string }
  | { method: 'cpf'; cpf: string }
  | { method: CardLookupMethod; unreadable: true };

/**
 * Reads `cardToken`: a token of ours, else — typed on Validar Cartão only — digits (spaces, dots and dashes ignored) of
 * a card number or a CPF. The QR path takes live tokens only: the printed number is on the card's image and on every
 * photo of it, so a QR holding just those digits is no proof of the card in hand (issue 22).
 */
export function cardQueryOf(input: ValidateCardRequest): CardQuery {
  const token = parseCardToken(input.cardToken);
  if (token) return { method: 'token', ...token };
  const deviceToken = parseDeviceToken(input.cardToken);
  if (deviceToken) return { method: 'token', number: deviceToken.number, code: deviceToken.code, deviceSlot: deviceToken.slot };
  const digits = digitsOfTyped(input.cardToken);
  if (input.source === 'qrcode') return { method: unreadableMethodOf(input.source, digits), unreadable: true };
  if (isValidCardNumber(digits)) return { method: 'number', number: digits };
  if (input.source === 'manual' && digits.length === 11 && /^\d+$/.test(digits) && isValidCpf(digits)) return { method: 'cpf', cpf: digits };
  return { method: unreadableMethodOf(input.source, digits), unreadable: true };
}

/** How the audit row names input that matches nothing we issue: what the receptionist most likely meant. */
function unreadableMethodOf(source: ValidateCardRequest['source'], digits: string): CardLookupMethod {
  if (source === 'manual' && digits.length === 11) return 'cpf';
  return source === 'manual' || /^\d{16}$/.test(digits) ? 'number' : 'token';
}

type Outcome = { result: CardValidationResult; card: CardFacts | null; ambiguous?: true; deviceId?: string };

/**
 * A device's offline code (issue 29): the card holder's active device in that slot must have made it, live, and the
 * device must have reached the server within the last 72 h (the bound after which the device itself stops showing
 * codes). A revoked device, a wrong slot or a forged code is unknown; an old code of the device, or one shown past the
 * bound, is 'expired' — the patient opens the card online again. The card's own rules then decide as for any token.
 */
async function checkDeviceCode(
  card: CardFacts,
  query: { code: string; deviceSlot: number },
  clinicId: string,
  deps: ValidationDeps,
  now: Date,
): Promise<{ refused: Outcome } | { deviceId: string }> {
  const device = await deps.deviceLookup(clinicId, card.holderUserId, query.deviceSlot);
  if (!device) return { refused: { result: 'not_found', card } };
  const secret = Buffer.from(deps.box.open(device.secretEncrypted), 'hex');
  if (!deviceCodeMatches(secret, card.number, query.code, now)) {
    const result = deviceCodeWasShownWithin(secret, card.number, query.code, now) ? 'expired' : 'not_found';
    return { refused: { result, card, deviceId: device.id } };
  }
  if (offlineCodesUntil(device.confirmedAt) < now) return { refused: { result: 'expired', card, deviceId: device.id } };
  return { deviceId: device.id };
}

async function outcomeOf(query: CardQuery, clinicId: string, deps: ValidationDeps, now: Date): Promise<Outcome> {
  if ('unreadable' in query) return { result: 'not_found', card: null };
  const card = query.method === 'cpf' ? await deps.lookups.byCpf(clinicId, query.cpf) : await deps.lookups.byNumber(clinicId, query.number);
  if (card === 'ambiguous') return { result: 'not_found', card: null, ambiguous: true };
  if (!card) return { result: 'not_found', card: null };
  if (card.revokedAt !== null) return { result: 'not_found', card };
  let deviceId: string | undefined;
  if ('deviceSlot' in query) {
    const checked = await checkDeviceCode(card, query, clinicId, deps, now);
    if ('refused' in checked) return checked.refused;
    deviceId = checked.deviceId;
  } else if (query.method === 'token') {
    const secret = deps.box.open(card.secretEncrypted);
    if (!cardCodeMatches(secret, query.code, now)) {
      // A real code this card showed within the last day is a QR left open or a screenshot: say it expired, so the
      // desk asks for the card again instead of refusing a paying patient (issue 23). Any other code is just unknown,
      // with no hint of why; the audit row keeps the card either way.
      return { result: cardCodeWasShownWithin(secret, query.code, now) ? 'expired' : 'not_found', card };
    }
  }
  const state = cardBenefitsState(card, card.graceDays, now);
  return { result: state === 'active' ? 'valid' : 'inactive', card, ...(deviceId ? { deviceId } : {}) };
}

/**
 * What the answer to a valid card says: a live QR token proves the card is in hand; a typed number or CPF proves only
 * that someone knows it, so the receptionist is asked to check the photo or a document (issue 22).
 */
function validMessageOf(method: CardLookupMethod): string {
  switch (method) {
    case 'token':
      return messages.cards.valid;
    case 'number':
      return messages.cards.validByNumber;
    case 'cpf':
      return messages.cards.validByCpf;
  }
}

/** The answer: for a valid card what the receptionist needs to apply the discount, and nothing more (LGPD). */
function answerOf(method: CardLookupMethod, { result, card, ambiguous }: Outcome): ValidateCardResponse {
  if (ambiguous) return { valid: false, outcome: 'not_found', message: messages.cards.cpfAmbiguous };
  if (result === 'expired') return { valid: false, outcome: 'expired', message: messages.cards.expired };
  if (result === 'not_found' || !card) return { valid: false, outcome: 'not_found', message: messages.cards.invalid };
  if (result === 'inactive') return { valid: false, outcome: 'inactive', message: messages.cards.inactiveSubscription };
  return {
    valid: true,
    outcome: 'valid',
    message: validMessageOf(method),
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

export type ValidationDeps = {
  db: Database;
  lookups: CardLookups;
  /** The card holder's device by slot, for a device's offline code. */
  deviceLookup: DeviceLookup;
  /** Writes the attempt within the user's limit of the minute (prepareValidationRecorder). */
  recordAttempt: ValidationRecorder;
  box: SecretBox;
  /** Validations one clinic user may make in a minute, counted in the database across every server process. */
  perMinute: number;
};

/**
 * Validar QR Code / Validar Cartão (specification §7 validate-qrcode). One statement finds the card in the caller's
 * clinic, the code is checked in memory, and one statement writes the attempt to card_validations while counting it
 * against the caller's share of the minute (prepareValidationRecorder). Answers null when that share is spent:
 * then nothing is recorded and nothing of the lookup is answered.
 */
export async function validateCard(
  deps: ValidationDeps,
  caller: { clinicId: string; userId: string },
  input: ValidateCardRequest,
  now: Date,
): Promise<ValidateCardResponse | null> {
  const query = cardQueryOf(input);
  const outcome = await outcomeOf(query, caller.clinicId, deps, now);
  const recorded = await deps.recordAttempt(
    { clinicId: caller.clinicId, userId: caller.userId, cardId: outcome.card?.id ?? null, method: query.method, result: outcome.result, deviceId: outcome.deviceId ?? null },
    { perMinute: deps.perMinute, now },
  );
  if (recorded && outcome.result === 'valid' && outcome.deviceId) await markCardDeviceUsed(deps.db, outcome.deviceId, now);
  return recorded ? answerOf(query.method, outcome) : null;
}
