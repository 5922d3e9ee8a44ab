import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import type { AuthenticationOptions, AuthenticationResponse, RegistrationOptions, RegistrationResponse } from '@carteirinha/shared/contracts/passkeys';
import type { Database } from '../../db/client.ts';
import type { RelyingParty } from './relying-party.ts';
import { advancePasskeyCounter, consumeChallenge, credentialsOn, findPasskeyByCredentialId, storeChallenge, type Ceremony, type NewPasskey, type PasskeyRow } from './repository.ts';

/** How long the browser and the person have to answer a ceremony: long enough to find a security key. */
export const CEREMONY_TIMEOUT_MS = 5 * 60_000;

/** Why a ceremony failed: the codes the web maps to the §8 messages (`AUTH_ERROR_CODES`). */
export type CeremonyFailure = (typeof AUTH_ERROR_CODES)[
  'passkeyChallengeExpired' | 'passkeyNotRecognized' | 'passkeyWrongDomain' | 'passkeyRefused'
];

export class PasskeyCeremonyError extends Error {
  constructor(readonly code: CeremonyFailure) {
    super(code);
  }
}

/** The transports WebAuthn names: what the browser said it used is kept only when it is one of these. */
const TRANSPORTS: readonly string[] = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'];
function transportsOf(values: readonly string[]): string[] {
  return TRANSPORTS.filter((transport) => values.includes(transport));
}

/** The WebAuthn user handle of an account: its uuid's 16 bytes (§9: a security-key user id is 1 to 64 bytes). */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return isoUint8Array.fromHex(userId.replaceAll('-', ''));
}

/** The challenge a browser's answer carries (its clientDataJSON), or null when that is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    return decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    return null;
  }
}

export type CeremonyDeps = { db: Database; now: () => Date };

/** Options for adding a passkey on this site; the user's passkeys here are excluded, so one key is not added twice. */
export async function registrationOptions(deps: CeremonyDeps, rp: RelyingParty & { name: string }, user: { id: string; email: string; name: string }): Promise<RegistrationOptions> {
  const existing = await credentialsOn(deps.db, user.id, rp.rpId);
  const options = await generateRegistrationOptions({
    // What the device shows beside the passkey: the clinic's name on its site, the platform's elsewhere.
    rpName: rp.name,
    rpID: rp.rpId,
    userID: userHandleOf(user.id),
    userName: user.email,
    userDisplayName: user.name,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((credential) => ({ id: credential.credentialId, transports: transportsOf(credential.transports) })),
    // A discoverable credential signs in without typing the e-mail; user verification (PIN, biometrics) when the
    // device has it, so the passkey can stand for two factors at sign-in.
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await storeChallenge(deps.db, { challenge: options.challenge, ceremony: 'registration', userId: user.id, rpId: rp.rpId, expiresAt: new Date(deps.now().getTime() + CEREMONY_TIMEOUT_MS) }, deps.now());
  return { ...options };
}

/** Checks the browser's answer to the registration options and returns the credential to store. */
export async function verifiedRegistration(deps: CeremonyDeps, rp: RelyingParty, userId: string, name: string, response: RegistrationResponse): Promise<NewPasskey & { userVerified: boolean }> {
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(deps.db, challenge, { ceremony: 'registration', rpId: rp.rpId, userId }, deps.now()))) {
    throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyChallengeExpired);
  }
  let verification;
  try {
    verification = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpId, requireUserVerification: false });
  } catch {
    throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  }
  if (!verification.verified) throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  const info = verification.registrationInfo;
  return {
    userId,
    name,
    credentialId: info.credential.id,
    publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
    counter: info.credential.counter,
    rpId: rp.rpId,
    transports: transportsOf(response.response.transports ?? []),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid,
    userVerified: info.userVerified,
  };
}

/**
 * Options for using a passkey on this site. A sign-in names no credential (the authenticator offers the site's
 * discoverable ones) and requires user verification: the passkey alone then stands for two factors. A second factor
 * after a password names the user's credentials here and does not require it: the key is the second factor.
 */
export async function authenticationOptions(deps: CeremonyDeps, rp: RelyingParty, ceremony: Exclude<Ceremony, 'registration'>, userId: string | null): Promise<AuthenticationOptions> {
  const allowed = userId ? await credentialsOn(deps.db, userId, rp.rpId) : [];
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: ceremony === 'sign-in' ? 'required' : 'preferred',
    allowCredentials: allowed.map((credential) => ({ id: credential.credentialId, transports: transportsOf(credential.transports) })),
  });
  await storeChallenge(deps.db, { challenge: options.challenge, ceremony, userId, rpId: rp.rpId, expiresAt: new Date(deps.now().getTime() + CEREMONY_TIMEOUT_MS) }, deps.now());
  return { ...options };
}

/**
 * Checks an assertion: its challenge (once, this site, this ceremony, this user), the credential (known, made for
 * this site, the user's), the signature and user verification, and moves the counter forward. Returns the passkey.
 */
export async function verifiedAssertion(
  deps: CeremonyDeps,
  rp: RelyingParty,
  ceremony: Exclude<Ceremony, 'registration'>,
  userId: string | null,
  response: AuthenticationResponse,
): Promise<{ passkey: PasskeyRow; userVerified: boolean }> {
  const at = deps.now();
  const challenge = challengeOf(response.response.clientDataJSON);
  if (!challenge || !(await consumeChallenge(deps.db, challenge, { ceremony, rpId: rp.rpId, userId }, at))) {
    throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyChallengeExpired);
  }
  const passkey = await findPasskeyByCredentialId(deps.db, response.id);
  if (!passkey || (userId !== null && passkey.userId !== userId)) throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyNotRecognized);
  if (passkey.rpId !== rp.rpId) throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyWrongDomain);
  // A discoverable credential names its account: it must be the account the credential was registered to.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== isoBase64URL.fromBuffer(userHandleOf(passkey.userId))) throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpId,
      requireUserVerification: ceremony === 'sign-in',
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.counter, transports: transportsOf(passkey.transports) },
    });
  } catch {
    throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  }
  if (!verification.verified) throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  if (!(await advancePasskeyCounter(deps.db, passkey.id, verification.authenticationInfo.newCounter, at))) {
    throw new PasskeyCeremonyError(AUTH_ERROR_CODES.passkeyRefused);
  }
  return { passkey, userVerified: verification.authenticationInfo.userVerified };
}
