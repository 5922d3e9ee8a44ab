import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { captchaPayloadSchema, type CaptchaChallenge } from '@carteirinha/shared/contracts/captcha';
import type { CaptchaConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { claimCaptchaChallenge } from './repository.ts';

/** PBKDF2 runs in every browser through WebCrypto (no WASM), and costs the server one derivation to check. */
const ALGORITHM = 'PBKDF2/SHA-256';

/** Why a submission's captcha was refused, for the log; the person sees one message for all. */
export type CaptchaVerdict = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'invalid' | 'reused' };

export type Captcha = {
  enabled: boolean;
  /** A new signed challenge for the widget. */
  challenge: () => Promise<CaptchaChallenge>;
  /** Checks a solved challenge (the header's base64 payload) and uses it up. */
  verify: (payload: string | undefined) => Promise<CaptchaVerdict>;
};

function decodePayload(payload: string) {
  try {
    return captchaPayloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
  } catch {
    return null;
  }
}

/**
 * ALTCHA's proof of work (ADR 029): the server signs a challenge whose answer takes the browser a moment of hashing;
 * no outside service, no tracking. The challenge is signed with a key derived from the auth secret, so nothing new
 * has to be configured, and each solution is accepted once (`used_captcha_challenges`).
 */
export function createCaptcha(db: Database, config: CaptchaConfig, secret: string, now: () => Date): Captcha {
  const hmacSignatureSecret = `${secret}:captcha-challenge`;
  const hmacKeySignatureSecret = `${secret}:captcha-key`;

  return {
    enabled: config.enabled,

    async challenge() {
      const created = await createChallenge({
        algorithm: ALGORITHM,
        cost: config.cost,
        counter: randomInt(config.maxCounter, Math.ceil(config.maxCounter / 2)),
        deriveKey,
        // Seconds, as the widget reads it.
        expiresAt: Math.floor((now().getTime() + config.expiresMs) / 1000),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      return { parameters: created.parameters, signature: created.signature ?? '' };
    },

    async verify(payload) {
      if (!payload) return { ok: false, reason: 'missing' };
      const decoded = decodePayload(payload);
      if (!decoded?.success) return { ok: false, reason: 'malformed' };
      const { challenge, solution } = decoded.data;
      const expiresAt = challenge.parameters.expiresAt;
      // The expiry is signed with the challenge: one without it was not made here.
      if (expiresAt === undefined) return { ok: false, reason: 'invalid' };
      const at = now();
      if (expiresAt * 1000 <= at.getTime()) return { ok: false, reason: 'expired' };
      const result = await verifySolution({ challenge, solution, deriveKey, hmacSignatureSecret, hmacKeySignatureSecret });
      if (result.expired) return { ok: false, reason: 'expired' };
      if (!result.verified) return { ok: false, reason: 'invalid' };
      if (!(await claimCaptchaChallenge(db, challenge.parameters.nonce, new Date(expiresAt * 1000), at))) return { ok: false, reason: 'reused' };
      return { ok: true };
    },
  };
}
