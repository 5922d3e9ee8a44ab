import { z } from 'zod';

/**
 * The header that carries a solved captcha (ALTCHA's base64 payload) to sign-up, password reset and a sign-in after
 * failures (ADR 029). A header rather than a body field: better-auth's own bodies stay as the library defines them.
 */
export const CAPTCHA_HEADER = 'x-captcha';

/** GET /api/captcha/challenge: an ALTCHA v2 proof-of-work challenge, signed by the server, as the widget reads it. */
export const captchaChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().int().optional(),
  }),
  signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;

/** What the widget sends back: the challenge and the counter that solved it, as base64 JSON in `CAPTCHA_HEADER`. */
export const captchaPayloadSchema = z.object({
  challenge: captchaChallengeSchema,
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string().max(1024), time: z.number().optional() }),
});
export type CaptchaPayload = z.infer<typeof captchaPayloadSchema>;
