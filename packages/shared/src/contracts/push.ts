import { z } from 'zod';
import { messages } from '../messages.ts';

const m = messages.push;

/** Browsers a patient may receive notifications on at once: every phone and computer they use, not an unbounded list. */
export const PUSH_SUBSCRIPTIONS_PER_USER_MAX = 10;

/** The longest push service address we keep (FCM's are about 200 characters, Mozilla's and Apple's shorter). */
const ENDPOINT_MAX_LENGTH = 1_024;

/** base64url of exactly `bytes` bytes, unpadded (as `PushSubscription.toJSON()` gives the keys). */
function base64urlOfBytes(bytes: number) {
  const length = Math.ceil((bytes * 4) / 3);
  return z.string({ error: m.keyInvalid }).regex(new RegExp(`^[A-Za-z0-9_-]{${length}}$`), { error: m.keyInvalid });
}

/**
 * The browser's subscription as `PushSubscription.toJSON()` gives it: the push service's address and the keys that
 * encrypt messages for this browser (RFC 8291: a P-256 public key, 65 bytes uncompressed, and a 16-byte auth secret).
 */
export const pushSubscribeSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/, error: m.endpointInvalid }).max(ENDPOINT_MAX_LENGTH, { error: m.endpointInvalid }),
  expirationTime: z.number().int().nonnegative().nullable().optional(),
  keys: z.object({ p256dh: base64urlOfBytes(65), auth: base64urlOfBytes(16) }, { error: m.keyInvalid }),
});
export type PushSubscribeInput = z.infer<typeof pushSubscribeSchema>;

/** One browser that receives the patient's notifications. `endpoint` is theirs to match against this browser's. */
export const pushDeviceSchema = z.object({
  id: z.uuid(),
  endpoint: z.string(),
  userAgent: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  lastSuccessAt: z.iso.datetime({ offset: true }).nullable(),
});
export type PushDevice = z.infer<typeof pushDeviceSchema>;

/** Meu Perfil › Notificações: the platform's VAPID public key (applicationServerKey) and the patient's browsers. */
export const pushStateSchema = z.object({
  publicKey: z.string(),
  devices: z.array(pushDeviceSchema),
});
export type PushState = z.infer<typeof pushStateSchema>;

/**
 * What the service worker receives in a push message (JSON, encrypted for the browser): the clinic's name as the
 * title, the text, and the clinic's page the click opens. `tag` makes a newer notice of the same thing replace an
 * older one on the device.
 */
export const pushMessageSchema = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string().optional(),
  icon: z.string().optional(),
});
export type PushMessage = z.infer<typeof pushMessageSchema>;
