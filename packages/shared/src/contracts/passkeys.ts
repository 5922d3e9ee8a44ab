import { z } from 'zod';
import { messages } from '../messages.ts';

/** A passkey's name: how its owner tells the devices apart in the Segurança list. */
export const PASSKEY_NAME_MAX_LENGTH = 60;
/** Passkeys one account may hold: enough for every phone, computer and key a person has, not an unbounded list. */
export const PASSKEYS_PER_USER_MAX = 20;

const base64url = z.string().min(1).max(16_384).regex(/^[A-Za-z0-9_-]+$/);
const transport = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The browser's answer to `navigator.credentials.create()`, as @simplewebauthn/browser serialises it. */
export const registrationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: z.array(transport).max(8).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** The browser's answer to `navigator.credentials.get()`, as @simplewebauthn/browser serialises it. */
export const authenticationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

const credentialDescriptor = z.object({ id: z.string(), type: z.string(), transports: z.array(z.string()).optional() });

/**
 * The options of a registration ceremony (WebAuthn `PublicKeyCredentialCreationOptionsJSON`): the browser hands them
 * to the authenticator as they are, so only the fields we read are named; the rest pass through.
 */
export const registrationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rp: z.object({ id: z.string().optional(), name: z.string() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptor).optional(),
});
export type RegistrationOptions = z.infer<typeof registrationOptionsSchema>;

/** The options of a sign-in or second-factor ceremony (WebAuthn `PublicKeyCredentialRequestOptionsJSON`). */
export const authenticationOptionsSchema = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(credentialDescriptor).optional(),
  userVerification: z.enum(['required', 'preferred', 'discouraged']).optional(),
});
export type AuthenticationOptions = z.infer<typeof authenticationOptionsSchema>;

export const passkeyNameSchema = z
  .string()
  .trim()
  .min(1, messages.passkeys.nameRequired)
  .max(PASSKEY_NAME_MAX_LENGTH, messages.passkeys.nameMax);

/** POST /api/passkeys: the new passkey's name and the authenticator's answer to the registration options. */
export const registerPasskeySchema = z.object({
  name: passkeyNameSchema,
  response: registrationResponseSchema,
});
export type RegisterPasskeyInput = z.infer<typeof registerPasskeySchema>;

/** One passkey as its owner sees it in Segurança; the key material never leaves the server. */
export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  /** The site (host name) it signs in on. */
  rpId: z.string(),
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
  createdAt: z.iso.datetime({ offset: true }),
  lastUsedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;

export const passkeyIdParamsSchema = z.object({ id: z.uuid() });

/** The passkey ceremonies under /api/auth (better-auth's session machinery): a sign-in, or a second factor. */
export const passkeyCeremonyBodySchema = z.object({ response: authenticationResponseSchema });

/** The session a passkey ceremony under /api/auth made or completed. */
export const passkeySessionAnswerSchema = z.object({ token: z.string(), user: z.object({ id: z.string(), email: z.string() }) });
