import { deviceCodeMessage, deviceCodeStep, deviceTokenOf, truncateToCode } from '@carteirinha/shared/device-code';

function bytesOfBase64Url(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Whether this browser can keep a device key (Web Crypto in a secure context, and IndexedDB). */
export function canKeepDeviceKey(): boolean {
  return typeof crypto !== 'undefined' && crypto.subtle !== undefined && typeof indexedDB !== 'undefined';
}

/**
 * The server's one-time secret as an HMAC-SHA-256 key that cannot be exported: from here on the secret exists in
 * this browser only inside Web Crypto, and the enrolment's answer is dropped.
 */
export async function importDeviceKey(secretBase64Url: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', bytesOfBase64Url(secretBase64Url), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
}

/** The QR text this device shows for a card at `at` (shared/device-code.ts: the server computes the same). */
export async function deviceTokenAt(key: CryptoKey, slot: number, cardNumber: string, at: Date): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', key, deviceCodeMessage(cardNumber, deviceCodeStep(at)));
  return deviceTokenOf(cardNumber, slot, truncateToCode(new Uint8Array(mac)));
}
