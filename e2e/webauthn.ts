import type { Page } from '@playwright/test';

export type VirtualAuthenticator = {
  /** Whether the device's PIN or biometrics pass: false makes Chromium refuse the ceremony, as a person who cancels. */
  setUserVerified: (verified: boolean) => Promise<void>;
  /** How many passkeys the device holds now. */
  credentialCount: () => Promise<number>;
};

/**
 * Chromium's virtual authenticator (CDP `WebAuthn.addVirtualAuthenticator`) on this page's tab: a phone's built-in
 * authenticator that keeps passkeys (resident keys) and verifies its user, with no dialog to click. WebAuthn refuses
 * an IP address as relying party, so the tests that use it run on `localhost` and `<slug>.localhost`.
 */
export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return {
    setUserVerified: async (verified) => {
      await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: verified });
    },
    credentialCount: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials.length,
  };
}

/** `http://localhost:<port>`: the platform's host by name, where WebAuthn works (the suite's base URL is an IP). */
export function platformByName(baseURL: string | undefined): string {
  const base = new URL(baseURL ?? 'http://127.0.0.1:3210');
  return `${base.protocol}//localhost:${base.port}`;
}
