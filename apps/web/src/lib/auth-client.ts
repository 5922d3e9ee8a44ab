import { twoFactorClient } from 'better-auth/client/plugins';
import { createAuthClient } from 'better-auth/react';

/**
 * better-auth's browser client; the server mounts the auth routes under /api/auth on the same origin. The
 * two-factor plugin adds enrolment and code checks; a sign-in that needs a code answers `twoFactorRedirect`, and
 * the sign-in form asks for the code itself (no page redirect).
 */
export const authClient = createAuthClient({
  basePath: '/api/auth',
  plugins: [twoFactorClient()],
});
