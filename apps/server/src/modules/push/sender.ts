import webpush from 'web-push';
import type { PushMessage } from '@carteirinha/shared/contracts/push';
import type { VapidKeys } from './vapid.ts';

/** A browser's subscription as stored: where to post, and its keys. */
export type PushTarget = { endpoint: string; p256dh: string; auth: string };

/** 'gone': the push service says the subscription no longer exists (404, 410): it is pruned. */
export type PushOutcome = 'delivered' | 'gone';

/** A push service that refused or failed for another reason: the job retries it later. */
export class PushServiceError extends Error {
  constructor(readonly status: number | null, detail: string) {
    super(`push service answered ${status ?? 'nothing'}: ${detail}`);
    this.name = 'PushServiceError';
  }
}

/** How long the push service keeps a message for a device that is offline: a day (a visit, a due date are stale later). */
const TTL_SECONDS = 24 * 60 * 60;
const TIMEOUT_MS = 15_000;

/** fetch sets the length of the body itself. */
function withoutContentLength(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-length'));
}

/**
 * Posts one notification to a browser's push service (RFC 8030): web-push encrypts the payload for the browser
 * (aes128gcm, RFC 8291) and signs the VAPID header (RFC 8292); the request itself is ours, with a timeout and no
 * redirects followed (the endpoint was checked, where a redirect leads was not).
 */
export async function deliverPush(target: PushTarget, message: PushMessage, keys: VapidKeys, subject: string): Promise<PushOutcome> {
  const request = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(message), {
    vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
    TTL: TTL_SECONDS,
    urgency: 'normal',
    contentEncoding: 'aes128gcm',
  });
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: request.method,
      headers: withoutContentLength(request.headers),
      // A copy in a plain ArrayBuffer: a body every fetch typing takes (DOM and undici).
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw new PushServiceError(null, error instanceof Error ? error.message : String(error));
  }
  // The body is a short diagnostic at most; read it so the connection can be reused.
  const detail = (await response.text().catch(() => '')).slice(0, 200);
  if (response.status >= 200 && response.status < 300) return 'delivered';
  if (response.status === 404 || response.status === 410) return 'gone';
  throw new PushServiceError(response.status, detail);
}
