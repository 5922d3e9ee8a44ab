import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * The rotating QR token (ADR 014): RFC 6238 TOTP over the card's own 20-byte secret — HMAC-SHA1, 8 digits, a 30 s
 * step — carried as `C1.<card number>.<code>`. The number says which card; the code proves the secret. The same
 * parameters on the patient's device (otpauth runs in browsers too) give the same code offline.
 */
export const CARD_TOKEN_VERSION = 'C1';
export const CARD_TOKEN_PERIOD_SECONDS = 30;
export const CARD_TOKEN_DIGITS = 8;
export const CARD_TOKEN_ALGORITHM = 'SHA1';
/** Steps accepted either side of the current one: a code is good for 60–90 s, enough for clock skew and a slow scan. */
export const CARD_TOKEN_WINDOW = 1;
export const CARD_SECRET_BYTES = 20;

const TOKEN_PATTERN = /^C1\.(\d{16})\.(\d{8})$/;

/** A new card secret, as hex (sealed before it is stored). */
export function newCardSecret(): string {
  return randomBytes(CARD_SECRET_BYTES).toString('hex');
}

function totpOptions(secretHex: string) {
  return { secret: Secret.fromHex(secretHex), algorithm: CARD_TOKEN_ALGORITHM, digits: CARD_TOKEN_DIGITS, period: CARD_TOKEN_PERIOD_SECONDS };
}

/** The token the card's QR shows at `now`, and when its step ends (the QR refreshes then). */
export function cardTokenAt(card: { number: string; secretHex: string }, now: Date): { token: string; refreshAt: Date } {
  const code = TOTP.generate({ ...totpOptions(card.secretHex), timestamp: now.getTime() });
  const periodMs = CARD_TOKEN_PERIOD_SECONDS * 1000;
  const refreshAt = new Date((Math.floor(now.getTime() / periodMs) + 1) * periodMs);
  return { token: `${CARD_TOKEN_VERSION}.${card.number}.${code}`, refreshAt };
}

/** The card number and code of a token of ours; null for anything else. */
export function parseCardToken(value: string): { number: string; code: string } | null {
  const match = TOKEN_PATTERN.exec(value.trim());
  if (!match?.[1] || !match[2]) return null;
  return { number: match[1], code: match[2] };
}

/** Whether `code` is the card's code for the step of `now` or one either side (otpauth compares in constant time). */
export function cardCodeMatches(secretHex: string, code: string, now: Date): boolean {
  return TOTP.validate({ ...totpOptions(secretHex), token: code, timestamp: now.getTime(), window: CARD_TOKEN_WINDOW }) !== null;
}

/** How far back a card's code still counts as expired rather than unknown (issue 23): a day of steps. */
export const CARD_CODE_EXPIRED_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/**
 * Whether `code` is one the card showed at some step of the `lookbackMs` before `now` (the live steps included): a
 * real code that has expired — a screenshot, a card page left open — not a guess. One HMAC per step (2 880 for a day),
 * run only after the live check failed; otpauth compares each in constant time.
 */
export function cardCodeWasShownWithin(secretHex: string, code: string, now: Date, lookbackMs = CARD_CODE_EXPIRED_LOOKBACK_MS): boolean {
  const halfSteps = Math.ceil(lookbackMs / 2 / (CARD_TOKEN_PERIOD_SECONDS * 1000));
  const middle = now.getTime() - halfSteps * CARD_TOKEN_PERIOD_SECONDS * 1000;
  return TOTP.validate({ ...totpOptions(secretHex), token: code, timestamp: middle, window: halfSteps }) !== null;
}
