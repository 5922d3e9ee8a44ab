import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { AuthenticationOptions, AuthenticationResponse, RegistrationOptions, RegistrationResponse } from '@carteirinha/shared/contracts/passkeys';

const t = messages.passkeys;

/** A ceremony that did not end in a credential: what to tell the person, in pt-BR (specification §8). */
export class PasskeyError extends Error {}

/**
 * The WebAuthn browser code is loaded only when a ceremony starts: /auth keeps its first load small (the landing
 * page's JS budget), and most visits never touch a passkey.
 */
function loadBrowserCode() {
  return import('@simplewebauthn/browser');
}

/** Whether this browser can use passkeys at all (it has the WebAuthn API). */
export function browserHasWebAuthn(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The §8 messages for what the browser or the authenticator refused: aborted, already registered, wrong domain. */
function browserFailureMessage(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  const code = error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (name === 'NotAllowedError' || name === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') return t.cancelled;
  if (name === 'InvalidStateError' || code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return t.alreadyRegistered;
  if (name === 'SecurityError' || code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') return t.invalidDomain;
  if (name === 'NotSupportedError') return t.unsupported;
  return t.failed;
}

/** Runs the browser's part of a ceremony; every refusal becomes a PasskeyError with its pt-BR message. */
async function ceremony<T>(run: (browser: Awaited<ReturnType<typeof loadBrowserCode>>) => Promise<T>): Promise<T> {
  if (!browserHasWebAuthn()) throw new PasskeyError(t.unsupported);
  const browser = await loadBrowserCode();
  if (!browser.browserSupportsWebAuthn()) throw new PasskeyError(t.unsupported);
  try {
    return await run(browser);
  } catch (error) {
    throw new PasskeyError(browserFailureMessage(error));
  }
}

/** Asks the device to make a passkey for these options. */
export function createCredential(options: RegistrationOptions): Promise<RegistrationResponse> {
  return ceremony(async (browser) => {
    const answer = await browser.startRegistration({ optionsJSON: { ...options, rp: { ...options.rp }, user: options.user, pubKeyCredParams: options.pubKeyCredParams.map((param) => ({ alg: param.alg, type: 'public-key' as const })), excludeCredentials: options.excludeCredentials?.map((credential) => ({ id: credential.id, type: 'public-key' as const })) } });
    return { ...answer, response: { ...answer.response, transports: answer.response.transports?.filter(isKnownTransport) }, clientExtensionResults: { ...answer.clientExtensionResults } };
  });
}

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
type Transport = (typeof TRANSPORTS)[number];
function isKnownTransport(value: string): value is Transport {
  return TRANSPORTS.some((transport) => transport === value);
}

/** Asks the device to sign in (or to pass the second factor) with one of its passkeys for this site. */
export function getCredential(options: AuthenticationOptions): Promise<AuthenticationResponse> {
  return ceremony(async (browser) => {
    const answer = await browser.startAuthentication({ optionsJSON: { ...options, allowCredentials: options.allowCredentials?.map((credential) => ({ id: credential.id, type: 'public-key' as const })) } });
    return { ...answer, type: 'public-key', clientExtensionResults: { ...answer.clientExtensionResults } };
  });
}

/** The server's refusal codes of a ceremony, as the person should read them. */
export function serverFailureMessage(code: string | undefined, fallback: string | undefined): string {
  const known: Record<string, string> = {
    [AUTH_ERROR_CODES.passkeyChallengeExpired]: t.expired,
    [AUTH_ERROR_CODES.passkeyNotRecognized]: t.notRecognized,
    [AUTH_ERROR_CODES.passkeyWrongDomain]: t.invalidDomain,
    [AUTH_ERROR_CODES.passkeyRefused]: t.refused,
    [AUTH_ERROR_CODES.wrongClinic]: messages.tenancy.wrongClinic,
    [AUTH_ERROR_CODES.accountDeactivated]: messages.adminUsers.accountDeactivated,
  };
  return (code !== undefined ? known[code] : undefined) ?? fallback ?? t.failed;
}
