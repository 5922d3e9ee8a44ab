import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';
import type { AuthenticationOptions, AuthenticationResponse, RegistrationOptions, RegistrationResponse } from '@carteirinha/shared/contracts/passkeys';

/**
 * A software WebAuthn authenticator for server tests: what a phone or a security key does, with a real P-256 key
 * pair, real CBOR and real ECDSA signatures, so the server's SimpleWebAuthn checks run exactly as with a browser.
 * (The browser suite uses Chromium's own virtual authenticator instead.)
 */
type StoredCredential = { id: string; privateKey: KeyObject; rpId: string; userHandle: string; counter: number };

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

function sha256(data: Uint8Array | string): Buffer {
  return createHash('sha256').update(data).digest();
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): string {
  return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export type SoftAuthenticator = {
  register: (options: RegistrationOptions, origin: string, settings?: { userVerified?: boolean }) => RegistrationResponse;
  /** Answers with the first credential of the options' site (or of `allowCredentials`), or the one named. */
  authenticate: (options: AuthenticationOptions, origin: string, settings?: { userVerified?: boolean; credentialId?: string; rpId?: string }) => AuthenticationResponse;
  credentials: StoredCredential[];
};

export function createSoftAuthenticator(): SoftAuthenticator {
  const credentials: StoredCredential[] = [];

  return {
    credentials,

    register(options, origin, settings = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const x = isoBase64URL.toBuffer(jwk.x ?? '');
      const y = isoBase64URL.toBuffer(jwk.y ?? '');
      const coseKey = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, x],
          [-3, y],
        ]),
      );
      const credentialId = randomBytes(32);
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const flags = FLAG_USER_PRESENT | FLAG_ATTESTED_DATA | (settings.userVerified === false ? 0 : FLAG_USER_VERIFIED);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(0), Buffer.alloc(16), idLength, credentialId, Buffer.from(coseKey)]);
      const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, never>>([['fmt', 'none'], ['attStmt', new Map<string, never>()], ['authData', authData]]));
      const id = isoBase64URL.fromBuffer(credentialId);
      credentials.push({ id, privateKey, rpId, userHandle: options.user.id, counter: 0 });
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: clientData('webauthn.create', options.challenge, origin),
          attestationObject: isoBase64URL.fromBuffer(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },

    authenticate(options, origin, settings = {}) {
      const rpId = settings.rpId ?? options.rpId ?? new URL(origin).hostname;
      const allowed = options.allowCredentials?.map((credential) => credential.id) ?? [];
      const credential = credentials.find((candidate) =>
        settings.credentialId ? candidate.id === settings.credentialId : (allowed.length === 0 || allowed.includes(candidate.id)) && candidate.rpId === rpId,
      );
      if (!credential) throw new Error('the soft authenticator has no credential for this site');
      credential.counter += 1;
      const flags = FLAG_USER_PRESENT | (settings.userVerified === false ? 0 : FLAG_USER_VERIFIED);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(credential.counter)]);
      const clientDataJSON = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(isoBase64URL.toBuffer(clientDataJSON))]), credential.privateKey);
      return {
        id: credential.id,
        rawId: credential.id,
        type: 'public-key',
        response: {
          clientDataJSON,
          authenticatorData: isoBase64URL.fromBuffer(authData),
          signature: isoBase64URL.fromBuffer(signature),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}
