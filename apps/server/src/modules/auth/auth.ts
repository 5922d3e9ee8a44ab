import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { generateRandomString } from 'better-auth/crypto';
import { buildSyntheticUserOutput } from 'better-auth/db';
import { twoFactor } from 'better-auth/plugins';
import { z } from 'zod';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import { FULL_NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@carteirinha/shared/constants';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import type { BackgroundTasks } from '../../lib/background.ts';
import { passkeyAuthPlugin } from '../passkeys/auth-plugin.ts';
import { PLATFORM_BRAND } from './account-home.ts';
import { enqueueAccountMail, RESET_TOKEN_SECONDS, VERIFICATION_TOKEN_SECONDS, type AccountMailQueue } from './account-mail.ts';
import { deleteResetTokensOf, isAccountDeactivated, markEmailVerified, storedEmailOf } from './repository.ts';
import { forgetSignInFailures } from './sign-in-throttle.ts';

type AuthOptions = {
  db: Database;
  log: FastifyBaseLogger;
  secret: string;
  publicUrl: string;
  /** The e-mails to an account go through the 'account-mail' queue (account-mail.ts), never from the request. */
  jobs: AccountMailQueue;
  /** better-auth's own work after the answer (see `background.ts`). */
  background: BackgroundTasks;
  /** Google OAuth credentials; without them 'Login com Google' cannot be offered. */
  google?: { clientId: string; clientSecret: string } | undefined;
  /** better-auth's own scrypt unless a test passes a cheaper one (AppOptions.passwordHasher). */
  passwordHasher?: PasswordHasher | undefined;
};

/** How passwords are hashed and checked: better-auth's option of the same shape. */
export type PasswordHasher = {
  hash: (password: string) => Promise<string>;
  verify: (data: { hash: string; password: string }) => Promise<boolean>;
};

const SEVEN_DAYS_SECONDS = 7 * 24 * 60 * 60;
const ONE_DAY_SECONDS = 24 * 60 * 60;
/** better-auth's answer to a reset request, for every address alike. */
const RESET_REQUESTED_MESSAGE = 'If this email exists in our system, check your email for the reset link';

/** What a sign-up sends; anything else (a malformed body) is left to better-auth, which answers it alike for every address. */
const signUpBody = z.object({ email: z.email(), password: z.string(), name: z.string() });
const nameInBody = z.object({ name: z.string() });
const resetBody = z.object({ email: z.email(), redirectTo: z.string().optional() });

/** A name is quoted on pages and in e-mails: the cap of the sign-up form holds for every way of setting it. */
function refuseLongName(body: unknown): void {
  const parsed = nameInBody.safeParse(body);
  if (parsed.success && parsed.data.name.trim().length > FULL_NAME_MAX_LENGTH) {
    throw new APIError('BAD_REQUEST', { code: 'NAME_TOO_LONG', message: messages.validation.fullNameMax });
  }
}

/**
 * better-auth on our database: e-mail and password, verification and reset links by e-mail, cookie sessions.
 * Rate limiting is done by our own Fastify layer (per IP and per account), so the library's is off.
 */
export function createAuth({ db, log, secret, publicUrl, jobs, background, google, passwordHasher }: AuthOptions) {
  /**
   * Sign-up of an address that has an account answers as a new sign-up would (same status, same body, after hashing
   * the password as creating the account would) and tells the owner by e-mail instead: the form must not say which
   * addresses are registered (issue 12, item 9). No session is made, and nothing of the account changes.
   */
  async function answerSignUpOfKnownAddress(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
    const input = signUpBody.safeParse(ctx.body);
    if (!input.success) return undefined;
    const { password, name } = input.data;
    const { minPasswordLength, maxPasswordLength } = ctx.context.password.config;
    // Out-of-range passwords get better-auth's own error, which it gives before looking the address up.
    if (password.length < minPasswordLength || password.length > maxPasswordLength) return undefined;
    const email = input.data.email.toLowerCase();
    const existing = await ctx.context.internalAdapter.findUserByEmail(email);
    if (!existing) return undefined;
    await ctx.context.password.hash(password);
    const owner = existing.user;
    // After the answer, like a new account's confirmation e-mail: both sign-ups write one job of the same queue.
    background.run(enqueueAccountMail(jobs, { kind: 'signUpAttempt', userId: owner.id }), 'auth.sign_up_attempt_mail');
    log.info({ userId: owner.id }, 'auth.sign_up.known_address');
    const now = new Date();
    // The fields a new account's answer has (better-auth's own generic answer, with a token like a session's).
    const user = buildSyntheticUserOutput(ctx.context.options, { id: randomUUID(), name, email, emailVerified: false, image: null, createdAt: now, updatedAt: now });
    return ctx.json({ token: generateRandomString(32, 'a-z', 'A-Z', '0-9'), user });
  }

  /**
   * 'Esqueci minha senha' answers before looking the address up: it writes one 'account-mail' job for the address
   * typed, the same for an account and for nobody, and answers as better-auth does. The job makes the reset link and
   * sends it, or finds no account and ends (the decoy). A known and an unknown address thus make the same statements
   * and enqueue the same job (issue 22): nothing to tell them apart by, time included.
   */
  async function answerResetRequest(ctx: Parameters<Parameters<typeof createAuthMiddleware>[0]>[0]) {
    const input = resetBody.safeParse(ctx.body);
    // A malformed body gets better-auth's own 400, which looks nothing up either.
    if (!input.success) return undefined;
    await enqueueAccountMail(jobs, { kind: 'passwordReset', email: input.data.email.toLowerCase() });
    return ctx.json({ status: true, message: RESET_REQUESTED_MESSAGE });
  }

  return betterAuth({
    // The library's own notices join our structured log instead of the console.
    logger: {
      log: (level, message) => {
        if (level === 'error') log.error({ source: 'better-auth' }, message);
        else log.debug({ source: 'better-auth', level }, message);
      },
    },
    appName: PLATFORM_BRAND.name,
    baseURL: publicUrl,
    basePath: '/api/auth',
    secret,
    // Each clinic's site is its own origin. Our handler builds the request URL from the Host header, so trusting
    // that origin accepts same-origin calls on any site we serve and still refuses a foreign page's Origin. These are
    // the two origins plugins/request-origin.ts accepts for every /api write (ADR 009): keep them the same.
    trustedOrigins: (request) => [publicUrl, request ? new URL(request.url).origin : null],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, { provider: 'pg', usePlural: true, schema }),
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: 'carteirinha',
      useSecureCookies: publicUrl.startsWith('https://'),
      // Its e-mails' jobs are written after the answer: a known address must not answer slower than an unknown one
      // (issue 12, item 9).
      backgroundTasks: { handler: (task) => background.run(task, 'better-auth') },
    },
    rateLimit: { enabled: false },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path === '/sign-up/email' || ctx.path === '/update-user') refuseLongName(ctx.body);
        if (ctx.path === '/sign-up/email') return answerSignUpOfKnownAddress(ctx);
        if (ctx.path === '/request-password-reset') return answerResetRequest(ctx);
        return undefined;
      }),
    },
    plugins: [
      // TOTP (RFC 6238: 6 digits, 30 s) with backup codes; required of admins when Configurações says so.
      twoFactor({ issuer: PLATFORM_BRAND.name, backupCodeOptions: { amount: 10 } }),
      // Passkey sign-in and second factor, with the relying party of each site (ADR 029).
      passkeyAuthPlugin({ db }),
    ],
    socialProviders: google ? { google: { clientId: google.clientId, clientSecret: google.clientSecret } } : {},
    user: {
      // Meu Perfil: a new address is confirmed by a link sent to it (account-mail.ts, 'changeEmail'); until then the old
      // one stays. An address that has an account gets the same answer and nothing is sent (better-auth's own rule).
      changeEmail: { enabled: true },
      additionalFields: {
        // Read with every session, so a deactivated account is refused without an extra query (access-control.ts).
        deactivatedAt: { type: 'date', required: false, input: false },
      },
    },
    session: {
      expiresIn: SEVEN_DAYS_SECONDS,
      // Sliding renewal: an active session is pushed forward at most once a day.
      updateAge: ONE_DAY_SECONDS,
      // Read with the session itself, so the staff inactivity timeout costs no extra query (access-control.ts).
      additionalFields: {
        lastActiveAt: { type: 'date', required: false, input: false, defaultValue: () => new Date() },
        // Set by our auth routes once a TOTP or backup code is accepted for this very session.
        twoFactorVerified: { type: 'boolean', required: false, input: false, defaultValue: false },
        // The passkey that opened the session (or passed its second factor): removing it ends the session (ADR 029).
        passkeyId: { type: 'string', required: false, input: false },
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      ...(passwordHasher ? { password: passwordHasher } : {}),
      autoSignIn: true,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      // Never reached by a reset request (answerResetRequest takes it before the endpoint); kept because better-auth
      // enables resets only with it, and any other caller goes the same way: the account-mail job makes the link.
      // (Invitations from /admin/usuarios are made by the users module, with a 7-day link of their own.)
      sendResetPassword: async ({ user }) => {
        await enqueueAccountMail(jobs, { kind: 'passwordReset', email: user.email });
      },
      // The link was opened from the mailbox: an invited person's address is confirmed by setting the password. Any
      // other reset or invitation link of the account ends with it: one completed reset closes them all.
      onPasswordReset: async ({ user }) => {
        await deleteResetTokensOf(db, user.id);
        await markEmailVerified(db, user.id);
        // The mailbox's owner is back in: failed sign-ins that held the account back no longer count (ADR 007).
        await forgetSignInFailures(db, user.email);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // Opening a verification link signs nobody in: otherwise a link of the attacker's own account, opened by a victim,
      // would switch the victim's browser to the attacker's session (login CSRF, issue 12, item 16).
      autoSignInAfterVerification: false,
      expiresIn: VERIFICATION_TOKEN_SECONDS,
      // The account-mail job makes the link (a token of better-auth's own, landing on the site root with a marker so the
      // site says the address is confirmed) and sends it; better-auth runs this after the answer (backgroundTasks).
      // better-auth's change-email calls this too, with the new address in `user.email` (the stored one is still the old):
      // that is a change to confirm at the new address.
      sendVerificationEmail: async ({ user }) => {
        const stored = await storedEmailOf(db, user.id);
        if (stored !== null && stored !== user.email.toLowerCase()) {
          await enqueueAccountMail(jobs, { kind: 'changeEmail', userId: user.id, newEmail: user.email.toLowerCase() });
        } else {
          await enqueueAccountMail(jobs, { kind: 'verifyEmail', userId: user.id });
        }
      },
    },
    databaseHooks: {
      session: {
        create: {
          // Every way in makes a session here (password, the second factor, Google, e-mail confirmation): a
          // deactivated account gets none. The password was already checked, so this tells nothing to a guesser.
          before: async (session) => {
            if (await isAccountDeactivated(db, session.userId)) {
              log.info({ userId: session.userId }, 'auth.sign_in.deactivated');
              throw new APIError('FORBIDDEN', { code: AUTH_ERROR_CODES.accountDeactivated, message: messages.adminUsers.accountDeactivated });
            }
          },
        },
      },
      user: {
        create: {
          // Every account gets its profile row with the full name given at sign-up.
          after: async (user) => {
            await db.insert(schema.profiles).values({ id: user.id, fullName: user.name }).onConflictDoNothing();
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
