/**
 * The offline card's QR code (ADR 014 amendment, issue 29). An enrolled device holds a 32-byte secret of its own and
 * derives, for each of its cards and each 30 s step, an 8-digit code: HMAC-SHA-256(secret, "<card number>:<step>")
 * cut to 8 digits by RFC 4226's dynamic truncation. Binding the card number into the message means one device secret
 * serves the holder's and the dependents' cards without one card's code working for another. The QR carries
 * `D1.<card number>.<slot>.<code>` (30 characters against the card token's 28: the same QR version); the slot says
 * which of the holder's devices, so the server checks one secret. The device computes it with Web Crypto (its key is
 * non-extractable), the server with node:crypto; both use the helpers below for the message and the truncation.
 */
export const DEVICE_TOKEN_VERSION = 'D1';
export const DEVICE_CODE_PERIOD_SECONDS = 30;
export const DEVICE_CODE_DIGITS = 8;
export const DEVICE_SECRET_BYTES = 32;
/** Devices one patient may enrol in one clinic (each covers the holder's and the dependents' cards). */
export const CARD_DEVICES_MAX = 3;
/**
 * How long a device keeps showing codes without reaching the server: a subscription that ends while the phone is
 * offline stops showing a code at most this long after the last time the server confirmed the card (issue 29).
 */
export const OFFLINE_CODE_HOURS = 72;
const HOUR_MS = 60 * 60 * 1000;

const DEVICE_TOKEN_PATTERN = /^D1\.(\d{16})\.([1-9])\.(\d{8})$/;

/** The 30 s step of an instant (RFC 6238's T). */
export function deviceCodeStep(at: Date | number): number {
  const ms = typeof at === 'number' ? at : at.getTime();
  return Math.floor(ms / (DEVICE_CODE_PERIOD_SECONDS * 1000));
}

/** When the step of `at` ends: the QR refreshes then. */
export function deviceCodeRefreshAt(at: Date): Date {
  return new Date((deviceCodeStep(at) + 1) * DEVICE_CODE_PERIOD_SECONDS * 1000);
}

/** The bytes the device's HMAC signs for one card and one step. */
export function deviceCodeMessage(cardNumber: string, step: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${cardNumber}:${step}`);
}

/** RFC 4226 §5.3 dynamic truncation of an HMAC to DEVICE_CODE_DIGITS decimal digits. */
export function truncateToCode(mac: Uint8Array): string {
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const binary =
    (((mac[offset] ?? 0) & 0x7f) << 24) | ((mac[offset + 1] ?? 0) << 16) | ((mac[offset + 2] ?? 0) << 8) | (mac[offset + 3] ?? 0);
  return String(binary % 10 ** DEVICE_CODE_DIGITS).padStart(DEVICE_CODE_DIGITS, '0');
}

/** The QR text of a device's code for a card. */
export function deviceTokenOf(cardNumber: string, slot: number, code: string): string {
  return `${DEVICE_TOKEN_VERSION}.${cardNumber}.${slot}.${code}`;
}

/** The card number, device slot and code of a device token; null for anything else. */
export function parseDeviceToken(value: string): { number: string; slot: number; code: string } | null {
  const match = DEVICE_TOKEN_PATTERN.exec(value.trim());
  if (!match?.[1] || !match[2] || !match[3]) return null;
  return { number: match[1], slot: Number(match[2]), code: match[3] };
}

/** Until when a device confirmed at `confirmedAt` may show codes without reaching the server again. */
export function offlineCodesUntil(confirmedAt: Date): Date {
  return new Date(confirmedAt.getTime() + OFFLINE_CODE_HOURS * HOUR_MS);
}
