import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, getSessionFromCtx } from 'better-auth/api';
import { expireCookie, setSessionCookie } from 'better-auth/cookies';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { passkeyCeremonyBodySchema } from '@carteirinha/shared/contracts/passkeys';
import type { Database } from '../../db/client.ts';
import { markSessionVerifiedByPasskey } from './repository.ts';
import { authenticationOptions, PasskeyCeremonyError, verifiedAssertion, type CeremonyDeps, type CeremonyFailure } from './ceremonies.ts';
import { relyingPartyOf, type RelyingParty } from './relying-party.ts';

/** better-auth's two-factor plugin keeps a pending sign-in (password right, code owed) in this signed cookie. */
const TWO_FACTOR_COOKIE = 'two_factor';

/** The paths of this plugin under /api/auth: routes.ts applies the sign-in and second-factor rules to them. */
export const PASSKEY_AUTH_PATHS = {
  signInOptions: '/api/auth/passkey/sign-in-options',
  signIn: '/api/auth/passkey/sign-in',
  secondFactorOptions: '/api/auth/passkey/second-factor-options',
  secondFactor: '/api/auth/passkey/second-factor',
} as const;

const FAILURE_MESSAGES: Record<CeremonyFailure, string> = {
  [AUTH_ERROR_CODES.passkeyChallengeExpired]: messages.passkeys.expired,
  [AUTH_ERROR_CODES.passkeyNotRecognized]: messages.passkeys.notRecognized,
  [AUTH_ERROR_CODES.passkeyWrongDomain]: messages.passkeys.invalidDomain,
  [AUTH_ERROR_CODES.passkeyRefused]: messages.passkeys.refused,
};

function refusal(code: CeremonyFailure): APIError {
  return new APIError(code === AUTH_ERROR_CODES.passkeyWrongDomain ? 'BAD_REQUEST' : 'UNAUTHORIZED', { code, message: FAILURE_MESSAGES[code] });
}

/** Runs a ceremony step, answering its failures with the codes and pt-BR messages the web shows. */
async function answering<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof PasskeyCeremonyError) throw refusal(error.code);
    throw error;
  }
}

/** The relying party of the request better-auth is handling (its URL is the site's own: routes.ts builds it). */
function relyingPartyOfRequest(request: Request | undefined): RelyingParty {
  const rp = request ? relyingPartyOf(new URL(request.url)) : null;
  if (!rp) throw refusal(AUTH_ERROR_CODES.passkeyWrongDomain);
  return rp;
}

type EndpointContext = Parameters<typeof getSessionFromCtx>[0];

/**
 * Who owes a second factor here: the signed-in session that has not passed it yet, or a sign-in that stopped at
 * better-auth's code step (its signed cookie names the account). Null when neither.
 */
async function pendingSecondFactor(ctx: EndpointContext): Promise<{ userId: string; session: { id: string; token: string } | null; cookieToken: string | null } | null> {
  const session = await getSessionFromCtx(ctx);
  if (session) return { userId: session.user.id, session: { id: session.session.id, token: session.session.token }, cookieToken: null };
  const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE);
  const token = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!token) return null;
  const pending = await ctx.context.internalAdapter.findVerificationValue(token);
  if (!pending || pending.expiresAt.getTime() <= Date.now()) return null;
  return { userId: pending.value, session: null, cookieToken: token };
}

/**
 * Passkeys inside better-auth (ADR 029): sign-in and second factor make or complete sessions through the library's
 * own machinery (its session hooks refuse deactivated accounts; the cookie is signed as every other), while the
 * ceremonies themselves are ours (`ceremonies.ts`), with the relying party of the site the request came to.
 * Registration and the Segurança list are plain API routes (`routes.ts`): they make no session.
 */
export function passkeyAuthPlugin(deps: { db: Database }) {
  const ceremonyDeps: CeremonyDeps = { db: deps.db, now: () => new Date() };

  return {
    id: 'carteirinha-passkeys',
    endpoints: {
      passkeySignInOptions: createAuthEndpoint('/passkey/sign-in-options', { method: 'POST' }, async (ctx) => {
        const rp = relyingPartyOfRequest(ctx.request);
        return ctx.json(await authenticationOptions(ceremonyDeps, rp, 'sign-in', null));
      }),

      passkeySignIn: createAuthEndpoint('/passkey/sign-in', { method: 'POST', body: passkeyCeremonyBodySchema }, async (ctx) => {
        const rp = relyingPartyOfRequest(ctx.request);
        const { passkey } = await answering(() => verifiedAssertion(ceremonyDeps, rp, 'sign-in', null, ctx.body.response));
        const user = await ctx.context.internalAdapter.findUserById(passkey.userId);
        if (!user) throw refusal(AUTH_ERROR_CODES.passkeyNotRecognized);
        // User verification was required: possession of the key plus the device's PIN or biometrics is two factors.
        const session = await ctx.context.internalAdapter.createSession(user.id, false, { passkeyId: passkey.id, twoFactorVerified: true }, true);
        await setSessionCookie(ctx, { session, user });
        return ctx.json({ token: session.token, user: { id: user.id, email: user.email } });
      }),

      passkeySecondFactorOptions: createAuthEndpoint('/passkey/second-factor-options', { method: 'POST' }, async (ctx) => {
        const rp = relyingPartyOfRequest(ctx.request);
        const pending = await pendingSecondFactor(ctx);
        if (!pending) throw new APIError('UNAUTHORIZED', { code: 'INVALID_TWO_FACTOR_COOKIE', message: messages.twoFactor.attemptsExhausted });
        return ctx.json(await authenticationOptions(ceremonyDeps, rp, 'second-factor', pending.userId));
      }),

      passkeySecondFactor: createAuthEndpoint('/passkey/second-factor', { method: 'POST', body: passkeyCeremonyBodySchema }, async (ctx) => {
        const rp = relyingPartyOfRequest(ctx.request);
        const pending = await pendingSecondFactor(ctx);
        if (!pending) throw new APIError('UNAUTHORIZED', { code: 'INVALID_TWO_FACTOR_COOKIE', message: messages.twoFactor.attemptsExhausted });
        const { passkey } = await answering(() => verifiedAssertion(ceremonyDeps, rp, 'second-factor', pending.userId, ctx.body.response));
        const user = await ctx.context.internalAdapter.findUserById(pending.userId);
        if (!user) throw refusal(AUTH_ERROR_CODES.passkeyNotRecognized);
        if (pending.session) {
          await markSessionVerifiedByPasskey(deps.db, pending.session.id, passkey.id);
          return ctx.json({ token: pending.session.token, user: { id: user.id, email: user.email } });
        }
        // The pending sign-in is used up, as better-auth's own code step does with it.
        const consumed = pending.cookieToken ? await ctx.context.internalAdapter.consumeVerificationValue(pending.cookieToken) : null;
        if (consumed?.value !== user.id) throw new APIError('UNAUTHORIZED', { code: 'INVALID_TWO_FACTOR_COOKIE', message: messages.twoFactor.attemptsExhausted });
        const session = await ctx.context.internalAdapter.createSession(user.id, false, { passkeyId: passkey.id, twoFactorVerified: true }, true);
        await setSessionCookie(ctx, { session, user });
        expireCookie(ctx, ctx.context.createAuthCookie(TWO_FACTOR_COOKIE));
        return ctx.json({ token: session.token, user: { id: user.id, email: user.email } });
      }),
    },
  } satisfies BetterAuthPlugin;
}
