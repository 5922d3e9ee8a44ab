import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  DEVICE_CODE_PERIOD_SECONDS,
  DEVICE_SECRET_BYTES,
  deviceCodeMessage,
  deviceCodeStep,
  truncateToCode,
} from '@carteirinha/shared/device-code';
import { CARD_CODE_EXPIRED_LOOKBACK_MS, CARD_TOKEN_WINDOW } from './card-token.ts';

/** A new device secret: 32 random bytes, given to the device once (base64url) and kept sealed here. */
export function newDeviceSecret(): Buffer {
  return randomBytes(DEVICE_SECRET_BYTES);
}

/** The device's code for a card at one step: what its Web Crypto key computes offline (shared/device-code.ts). */
export function deviceCodeAtStep(secret: Buffer, cardNumber: string, step: number): string {
  return truncateToCode(createHmac('sha256', secret).update(deviceCodeMessage(cardNumber, step)).digest());
}

function sameCode(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Whether `code` is the device's code for the card at the step of `now` or one either side (as a card's code, ADR 014). */
export function deviceCodeMatches(secret: Buffer, cardNumber: string, code: string, now: Date): boolean {
  const current = deviceCodeStep(now);
  let matched = false;
  for (let step = current - CARD_TOKEN_WINDOW; step <= current + CARD_TOKEN_WINDOW; step++) {
    if (sameCode(deviceCodeAtStep(secret, cardNumber, step), code)) matched = true;
  }
  return matched;
}

/**
 * Whether `code` is one the device showed for the card at some step of the day before `now`: a screenshot or a page
 * left open, answered 'expired' as a card's own old code is (issue 23). Run only after the live check failed.
 */
export function deviceCodeWasShownWithin(secret: Buffer, cardNumber: string, code: string, now: Date, lookbackMs = CARD_CODE_EXPIRED_LOOKBACK_MS): boolean {
  const current = deviceCodeStep(now);
  const steps = Math.ceil(lookbackMs / (DEVICE_CODE_PERIOD_SECONDS * 1000));
  let matched = false;
  for (let step = current - steps; step <= current; step++) {
    if (sameCode(deviceCodeAtStep(secret, cardNumber, step), code)) matched = true;
  }
  return matched;
}
