/**
 * A Web Push service on 127.0.0.1, standing in for FCM, Mozilla's or Apple's (issue 29), and the browser side of a
 * subscription: the ECDH P-256 key pair and 16-byte auth secret a browser makes, and the decryption of what the
 * service receives (aes128gcm, RFC 8188, with the keys of RFC 8291) and the check of the VAPID header (RFC 8292) —
 * all with node:crypto, so the test reads the message as a browser would, not through the library that wrote it.
 */
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, randomUUID, verify } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';

/** One request the double received, and the status it answered. */
export type PushRequest = { path: string; headers: IncomingHttpHeaders; body: Buffer; status: number };

export type PushServiceDouble = {
  /** Every request received, in order. */
  requests: PushRequest[];
  /** The requests one browser's endpoint received. */
  requestsTo: (endpoint: string) => PushRequest[];
  /** The next answers of one endpoint, in order (then 201 Created, as push services answer). */
  answer: (endpoint: string, ...statuses: number[]) => void;
  urlOf: (path: string) => string;
  close: () => Promise<void>;
};

export async function startPushServiceDouble(): Promise<PushServiceDouble> {
  const requests: PushRequest[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const status = answers.get(path)?.shift() ?? 201;
      requests.push({ path, headers: request.headers, body: Buffer.concat(chunks), status });
      response.statusCode = status;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the push service double is not listening on a port');
  const origin = `http://127.0.0.1:${address.port}`;
  const pathOf = (endpoint: string) => new URL(endpoint).pathname;
  return {
    requests,
    requestsTo: (endpoint) => requests.filter((request) => request.path === pathOf(endpoint)),
    answer: (endpoint, ...statuses) => answers.set(pathOf(endpoint), statuses),
    urlOf: (path) => `${origin}${path}`,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

export type TestBrowser = {
  /** What `PushSubscription.toJSON()` gives, as the browser posts it. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  /** The plaintext of an aes128gcm body sent to this browser. */
  decrypt: (body: Buffer) => string;
};

const hkdf = (ikm: Buffer, salt: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** A browser's push subscription at the double: its own key pair and auth secret. */
export function createTestBrowser(double: PushServiceDouble): TestBrowser {
  const ecdh = createECDH('prime256v1');
  const browserPublic = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    subscription: { endpoint: double.urlOf(`/push/${randomUUID()}`), keys: { p256dh: browserPublic.toString('base64url'), auth: authSecret.toString('base64url') } },
    decrypt(body) {
      // RFC 8188 header: salt (16) | record size (4) | key id length (1) | key id = the sender's public key (RFC 8291).
      const salt = body.subarray(0, 16);
      const recordSize = body.readUInt32BE(16);
      const idLength = body.readUInt8(20);
      const senderPublic = body.subarray(21, 21 + idLength);
      const record = body.subarray(21 + idLength);
      if (record.length > recordSize) throw new Error('more than one record');
      const sharedSecret = ecdh.computeSecret(senderPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserPublic, senderPublic]);
      const ikm = hkdf(sharedSecret, authSecret, keyInfo, 32);
      const contentKey = hkdf(ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
      const nonce = hkdf(ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12);
      const decipher = createDecipheriv('aes-128-gcm', contentKey, nonce);
      decipher.setAuthTag(record.subarray(record.length - 16));
      const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02, then zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end -= 1;
      if (padded[end] !== 2) throw new Error('no last-record delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/**
 * Checks the request's `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): the key is `publicKey`, the ES256
 * signature verifies with it, and the token names the push service's origin. Answers the token's claims.
 */
export function verifiedVapidClaims(request: PushRequest, publicKey: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(request.headers.authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${request.headers.authorization ?? ''}`);
  if (match[2] !== publicKey) throw new Error('signed with another key');
  const [header, payload, signature] = match[1].split('.');
  if (!header || !payload || !signature) throw new Error('not a JWT');
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('bad signature');
  const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (typeof claims !== 'object' || claims === null || !('aud' in claims) || !('exp' in claims) || !('sub' in claims)) throw new Error('claims missing');
  const { aud, exp, sub } = claims;
  if (typeof aud !== 'string' || typeof exp !== 'number' || typeof sub !== 'string') throw new Error('claims of the wrong type');
  return { aud, exp, sub };
}
