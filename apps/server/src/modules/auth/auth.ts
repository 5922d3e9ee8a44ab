import type { FastifyBaseLogger } from 'fastify';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { twoFactor } from 'better-auth/plugins';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@carteirinha/shared/constants';
import type { Database } from '../../db/client.ts';
import * as schema from '../../db/schema.ts';
import { renderActionEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { HostResolver } from '../tenancy/host-site.ts';
import { isAccountDeactivated, markEmailVerified } from './repository.ts';

type AuthOptions = {
  db: Database;
  log: FastifyBaseLogger;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  resolver: HostResolver;
  /** Google OAuth credentials; without them 'Login com Google' cannot be offered. */
  google?: { clientId: string; clientSecret: string } | undefined;
};

type Brand = { name: string; color: string; baseUrl: string };
const PLATFORM_BRAND = { name: 'Carteirinha', color: '#0d9488' };
const SEVEN_DAYS_SECONDS = 7 * 24 * 60 * 60;
const ONE_DAY_SECONDS = 24 * 60 * 60;

function verificationEmail(brand: Brand, name: string, url: string) {
  return renderActionEmail({
    subject: messages.email.verifySubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: formatMessage(messages.email.verifyIntro, { name }),
    actionLabel: messages.email.verifyAction,
    actionUrl: url,
    footer: messages.email.ignore,
  });
}

function resetEmail(brand: Brand, name: string, url: string) {
  return renderActionEmail({
    subject: messages.email.resetSubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: formatMessage(messages.email.resetIntro, { name }),
    actionLabel: messages.email.resetAction,
    actionUrl: url,
    footer: messages.email.ignore,
  });
}

/**
 * better-auth on our database: e-mail and password, verification and reset links by e-mail, cookie sessions.
 * Rate limiting is done by our own Fastify layer (per IP and per account), so the library's is off.
 */
export function createAuth({ db, log, mailer, secret, publicUrl, resolver, google }: AuthOptions) {
  /** E-mails carry the name, colour and address of the site the person used: a clinic's, or the platform's. */
  async function brandOf(request: Request | undefined): Promise<Brand> {
    if (!request) return { ...PLATFORM_BRAND, baseUrl: publicUrl };
    const url = new URL(request.url);
    const site = await resolver.resolve(url.hostname);
    if (site.kind !== 'clinic') return { ...PLATFORM_BRAND, baseUrl: publicUrl };
    return { name: site.clinic.name, color: site.clinic.primaryColor ?? PLATFORM_BRAND.color, baseUrl: url.origin };
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
    // that origin accepts same-origin calls on any site we serve and still refuses a foreign page's Origin.
    trustedOrigins: (request) => [publicUrl, request ? new URL(request.url).origin : null],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, { provider: 'pg', usePlural: true, schema }),
    advanced: {
      database: { generateId: 'uuid' },
      cookiePrefix: 'carteirinha',
      useSecureCookies: publicUrl.startsWith('https://'),
    },
    rateLimit: { enabled: false },
    plugins: [
      // TOTP (RFC 6238: 6 digits, 30 s) with backup codes; required of admins when Configurações says so.
      twoFactor({ issuer: PLATFORM_BRAND.name, backupCodeOptions: { amount: 10 } }),
    ],
    socialProviders: google ? { google: { clientId: google.clientId, clientSecret: google.clientSecret } } : {},
    user: {
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
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      autoSignIn: true,
      requireEmailVerification: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      // Our own page reads the token; the link does not need the library's redirect hop.
      // (Invitations from /admin/usuarios are made by the users module, with a 7-day link of their own.)
      sendResetPassword: async ({ user, token }, request) => {
        const brand = await brandOf(request);
        const url = `${brand.baseUrl}/auth/redefinir-senha?token=${encodeURIComponent(token)}`;
        await mailer.send(user.email, resetEmail(brand, user.name, url));
      },
      // The link was opened from the mailbox: an invited person's address is confirmed by setting the password.
      onPasswordReset: async ({ user }) => {
        await markEmailVerified(db, user.id);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      // The link verifies and then lands on the site root (specification §2 /auth).
      sendVerificationEmail: async ({ user, token }, request) => {
        const brand = await brandOf(request);
        const url = `${brand.baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent('/')}`;
        await mailer.send(user.email, verificationEmail(brand, user.name, url));
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
