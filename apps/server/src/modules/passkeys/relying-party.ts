import { isIP } from 'node:net';

/** Where a WebAuthn ceremony happens: the relying-party id (the site's host name) and the page's origin. */
export type RelyingParty = { rpId: string; origin: string };

/**
 * Every site we serve is its own relying party (ADR 029): the platform's host, `<slug>.MAIN_DOMAIN`, a clinic's own
 * domain. A passkey is bound to the host it was made on and signs in there. WebAuthn refuses an IP address as
 * relying party, so a site reached by address has none (null): the forms offer the password only.
 */
export function relyingPartyOf(origin: URL): RelyingParty | null {
  const rpId = origin.hostname.replace(/^\[|\]$/g, '');
  if (rpId === '' || isIP(rpId) !== 0) return null;
  return { rpId, origin: origin.origin };
}
