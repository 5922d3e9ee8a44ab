/** Formatting and timing of the digital card: what the card shows and when its QR asks for the next token. */

const TIME_ZONE = 'America/Sao_Paulo';
const monthYear = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, month: '2-digit', year: 'numeric' });

/** The printed number in groups of four, as on a plastic card: "1234567890123456" → "1234 5678 9012 3456". */
export function groupCardNumber(number: string): string {
  return number.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** The card's validity as a card prints it, MM/yyyy in São Paulo time. */
export function validityMonthYear(value: string): string {
  return monthYear.format(new Date(value));
}

/**
 * A few hundred milliseconds after the token's window ends, so that a browser clock slightly ahead of the server's
 * still asks after the server has moved to the next window.
 */
export const REFRESH_MARGIN_MS = 300;

/**
 * How long until the QR asks for its next token. Normally the time left of the token's window (`refreshAt`), which is
 * never more than the period (at most every 60 s). When the device's clock disagrees with the server's so much that
 * `refreshAt` looks past or too far away, it waits one period instead: the server accepts the window either side, so
 * the QR stays valid, and a skewed clock never turns into a request every second.
 */
export function tokenRefreshDelayMs(refreshAt: string, periodSeconds: number, nowMs: number): number {
  const periodMs = Math.min(Math.max(periodSeconds, 1), 60) * 1000;
  const left = new Date(refreshAt).getTime() - nowMs;
  if (!Number.isFinite(left) || left <= 0 || left > periodMs) return periodMs;
  return left + REFRESH_MARGIN_MS;
}

/** Whole seconds left until `deadlineMs`, rounded up and never below zero (the countdown under the QR). */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}
