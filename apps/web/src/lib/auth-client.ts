import { createAuthClient } from 'better-auth/react';

/** better-auth's browser client; the server mounts the auth routes under /api/auth on the same origin. */
export const authClient = createAuthClient({
  basePath: '/api/auth',
});
