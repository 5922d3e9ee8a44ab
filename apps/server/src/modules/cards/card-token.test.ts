import { describe, expect, it } from 'vitest';
import { cardCodeMatches, cardCodeWasShownWithin, cardTokenAt, newCardSecret, parseCardToken } from './card-token.ts';

const NUMBER = '8076123456789012';
const STEP_MS = 30_000;
const T0 = new Date(Date.UTC(2026, 10, 24, 12, 0, 10));

describe('card tokens (TOTP, RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vector (8 digits at 59 s)', () => {
    // Appendix B: secret "12345678901234567890", T = 59 s → 94287082.
    const secretHex = Buffer.from('12345678901234567890').toString('hex');
    expect(cardTokenAt({ number: NUMBER, secretHex }, new Date(59_000)).token).toBe(`C1.${NUMBER}.94287082`);
  });

  it('accepts the code of the current step and one either side, not two', () => {
    const secretHex = newCardSecret();
    const { token } = cardTokenAt({ number: NUMBER, secretHex }, T0);
    const code = parseCardToken(token)?.code ?? '';
    for (const steps of [-1, 0, 1]) expect(cardCodeMatches(secretHex, code, new Date(T0.getTime() + steps * STEP_MS))).toBe(true);
    for (const steps of [-2, 2]) expect(cardCodeMatches(secretHex, code, new Date(T0.getTime() + steps * STEP_MS))).toBe(false);
    expect(cardCodeMatches(newCardSecret(), code, T0)).toBe(false);
  });

  it("knows a code the card showed within the last day (expired), and nothing older, newer or of another card", () => {
    const secretHex = newCardSecret();
    const code = parseCardToken(cardTokenAt({ number: NUMBER, secretHex }, T0).token)?.code ?? '';
    const later = (ms: number) => new Date(T0.getTime() + ms);
    // Ten minutes, and 23 h 59 min later: a screenshot or a card page left open.
    expect(cardCodeWasShownWithin(secretHex, code, later(10 * 60_000))).toBe(true);
    expect(cardCodeWasShownWithin(secretHex, code, later(24 * 60 * 60_000 - 60_000))).toBe(true);
    // A day and a few minutes later it is just an unknown code; so is one of the future, or of another card.
    expect(cardCodeWasShownWithin(secretHex, code, later(24 * 60 * 60_000 + 5 * 60_000))).toBe(false);
    expect(cardCodeWasShownWithin(secretHex, code, later(-10 * 60_000))).toBe(false);
    expect(cardCodeWasShownWithin(newCardSecret(), code, later(10 * 60_000))).toBe(false);
  });

  it('refreshes at the end of the step and parses only its own format', () => {
    const { token, refreshAt } = cardTokenAt({ number: NUMBER, secretHex: newCardSecret() }, T0);
    expect(refreshAt.toISOString()).toBe('2026-11-24T12:00:30.000Z');
    expect(token).toHaveLength(28);
    expect(parseCardToken(` ${token} `)).toEqual({ number: NUMBER, code: token.slice(-8) });
    for (const other of ['C2.8076123456789012.12345678', 'C1.807612345678901.12345678', 'C1.8076123456789012.1234567', NUMBER]) expect(parseCardToken(other)).toBeNull();
  });
});
