import { z } from 'zod';
import { authenticationOptionsSchema, passkeySessionAnswerSchema } from '@carteirinha/shared/contracts/passkeys';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { PasskeyError, serverFailureMessage, getCredential } from '../lib/webauthn';

/** better-auth's answers carry `{ code, message }`; our Fastify layer's `{ error: { code, message } }`. */
const authErrorSchema = z.object({ code: z.string().optional(), message: z.string().optional() });

async function postAuth(path: string, body: unknown): Promise<unknown> {
  const response = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) return json;
  if (response.status === 429) throw new PasskeyError(messages.auth.tooManyAttempts);
  const ours = errorResponseSchema.safeParse(json);
  if (ours.success) throw new PasskeyError(ours.data.error.message);
  const theirs = authErrorSchema.safeParse(json);
  throw new PasskeyError(serverFailureMessage(theirs.data?.code, undefined));
}

/**
 * A whole passkey ceremony under /api/auth: options from the server, the device's answer, the server's check. A
 * sign-in makes a session (two factors, with the device's PIN or biometrics); a second factor completes the current
 * session or the pending sign-in.
 */
async function passkeyCeremony(kind: 'sign-in' | 'second-factor') {
  const options = authenticationOptionsSchema.parse(await postAuth(`/api/auth/passkey/${kind}-options`, {}));
  const response = await getCredential(options);
  return passkeySessionAnswerSchema.parse(await postAuth(`/api/auth/passkey/${kind}`, { response }));
}

export function signInWithPasskey() {
  return passkeyCeremony('sign-in');
}

export function passSecondFactorWithPasskey() {
  return passkeyCeremony('second-factor');
}
