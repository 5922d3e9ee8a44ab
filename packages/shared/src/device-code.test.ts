import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deviceCodeMessage, deviceCodeRefreshAt, deviceCodeStep, deviceTokenOf, offlineCodesUntil, parseDeviceToken, truncateToCode } from './device-code.ts';

describe('the offline card code', () => {
  it("truncates as RFC 4226 §5.4's worked example (its 31-bit value 0x50ef7f19 = 1357872921, kept to 8 digits)", () => {
    const mac = Uint8Array.from(Buffer.from('1f8698690e02ca16618550ef7f19da8e945b555a', 'hex'));
    expect(truncateToCode(mac)).toBe('57872921');
  });

  it('pads a short value with zeros and keeps 8 digits for a SHA-256 HMAC', () => {
    const code = truncateToCode(createHmac('sha256', Buffer.alloc(32, 7)).update(deviceCodeMessage('8076000000000006', 1)).digest());
    expect(code).toMatch(/^\d{8}$/);
  });

  it('reads back the token it writes, and nothing else', () => {
    const token = deviceTokenOf('8076123456789012', 2, '01234567');
    expect(token).toBe('D1.8076123456789012.2.01234567');
    expect(token).toHaveLength(30);
    expect(parseDeviceToken(` ${token} `)).toEqual({ number: '8076123456789012', slot: 2, code: '01234567' });
    for (const other of ['C1.8076123456789012.01234567', 'D1.8076123456789012.0.01234567', 'D1.807612345678901.2.01234567', 'D1.8076123456789012.2.0123456']) {
      expect(parseDeviceToken(other)).toBeNull();
    }
  });

  it('steps every 30 s, refreshes at the end of the step, and stops offline 72 h after the last confirmation', () => {
    const at = new Date('2026-11-26T12:00:10.000Z');
    expect(deviceCodeStep(at)).toBe(Math.floor(at.getTime() / 30_000));
    expect(deviceCodeRefreshAt(at).toISOString()).toBe('2026-11-26T12:00:30.000Z');
    expect(offlineCodesUntil(at).toISOString()).toBe('2026-11-29T12:00:10.000Z');
  });
});
