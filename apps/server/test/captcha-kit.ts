import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { CAPTCHA_HEADER, captchaChallengeSchema } from '@carteirinha/shared/contracts/captcha';

/**
 * The captcha's environment for a server process a test starts (ADR 029): on, as in production, with small work, so a
 * sign-up through the real server solves it in milliseconds instead of the second a person's phone spends.
 */
export const SMALL_CAPTCHA_ENV = { CAPTCHA: 'on', CAPTCHA_COST: '10', CAPTCHA_MAX_COUNTER: '20' } as const;

/** The answer to a challenge the server handed out, solved as the browser's widget does, in the header it reads. */
export async function solvedCaptchaHeaders(challengeBody: unknown): Promise<Record<string, string>> {
  const challenge = captchaChallengeSchema.parse(challengeBody);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the captcha challenge was not solved');
  return { [CAPTCHA_HEADER]: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64') };
}
