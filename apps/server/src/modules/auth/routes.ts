import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { AUTH_ERROR_CODES } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { owesSecondFactor, refuseDeactivatedAccount, twoFactorRequiredOf } from '../../plugins/access-control.ts';
import { siteOf } from '../../plugins/host-site.ts';
import type { ClinicSite } from '../tenancy/host-site.ts';
import { assignmentOfUser, enrolPatient, patientLimitReached } from '../tenancy/service.ts';
import type { Auth } from './auth.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { enforceStaffSessionLimits } from './session-limits.ts';
import { claimTotpCode } from './totp-replay.ts';
import {
  deleteSessionByToken,
  endOtherSessions,
  markSessionTwoFactorVerified,
  recordSignIn,
  startedSession,
} from './repository.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
const SOCIAL_SIGN_IN_PATH = '/api/auth/sign-in/social';
const VERIFY_TOTP_PATH = '/api/auth/two-factor/verify-totp';
const VERIFY_BACKUP_CODE_PATH = '/api/auth/two-factor/verify-backup-code';
/** Where a second factor is proven; a success marks the session as having passed it. */
const SECOND_FACTOR_PATHS = new Set([VERIFY_TOTP_PATH, VERIFY_BACKUP_CODE_PATH]);
/** Endpoints a bot would hammer: limited per IP (two-factor codes too: a 6-digit code must not be guessable). */
const LIMITED_PATHS = new Set([
  SIGN_IN_PATH,
  SIGN_UP_PATH,
  '/api/auth/request-password-reset',
  '/api/auth/reset-password',
  VERIFY_TOTP_PATH,
  VERIFY_BACKUP_CODE_PATH,
]);
/** Endpoints that start, end or do without a session: the staff time limits are not checked there. */
const SESSION_LIMITS_EXEMPT = new Set([...LIMITED_PATHS, SOCIAL_SIGN_IN_PATH, '/api/auth/sign-out', '/api/auth/verify-email']);
/** Where a session is handed out to someone who signed in (or signed up, or confirmed the e-mail, which signs in). */
const SIGN_IN_STARTS = new Set([SIGN_IN_PATH, SIGN_UP_PATH, '/api/auth/verify-email']);
const OAUTH_CALLBACK_PREFIX = '/api/auth/callback/';

/**
 * What a session that still owes its second factor must not do when the user has one (a Google sign-in, or a session
 * older than the enrolment): manage the factor itself (read the secret, turn it off, mint backup codes) or end the
 * user's other sessions. Enrolling a user who has no factor yet (enable, then verify-totp) stays open.
 */
const SECOND_FACTOR_GUARDED = new Set([
  '/api/auth/two-factor/get-totp-uri',
  '/api/auth/two-factor/enable',
  '/api/auth/two-factor/disable',
  '/api/auth/two-factor/generate-backup-codes',
  '/api/auth/two-factor/view-backup-codes',
  '/api/auth/revoke-sessions',
  '/api/auth/revoke-session',
  '/api/auth/revoke-other-sessions',
]);

/** better-auth's session cookie, as `<token>.<signature>`; an empty value is the cookie being cleared. */
const SESSION_COOKIE = /^(?:__Secure-)?carteirinha\.session_token=([^;]+)/;

const emailInBody = z.object({ email: z.string().trim().toLowerCase() });
const codeInBody = z.object({ code: z.string().trim() });
const authAnswer = z.object({ token: z.string().nullish(), user: z.object({ id: z.string(), email: z.string().optional() }) });

function rawPathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? request.url;
}

/**
 * The path better-auth routes on. It parses the request URL, which resolves dot segments ('/./', '%2e', '/x/../'):
 * every check here must look at that path, not at the raw one, or '/api/auth/./two-factor/disable' would pass a
 * check written for '/api/auth/two-factor/disable' and still reach that endpoint.
 */
function pathOf(request: FastifyRequest): string {
  return new URL(rawPathOf(request), 'http://localhost').pathname;
}

function emailOf(request: FastifyRequest): string | null {
  const parsed = emailInBody.safeParse(request.body);
  return parsed.success ? parsed.data.email : null;
}

/** The token of a session the answer just started, if it started one. */
function startedSessionToken(response: Response): string | null {
  for (const cookie of response.headers.getSetCookie()) {
    const value = SESSION_COOKIE.exec(cookie)?.[1];
    if (value) return decodeURIComponent(value).split('.', 1)[0] ?? null;
  }
  return null;
}

/** Passes a Fastify request to better-auth's fetch-style handler and copies its answer back. */
async function forwardToAuth(auth: Auth, request: FastifyRequest, reply: FastifyReply): Promise<Response> {
  const url = new URL(request.url, `${request.protocol}://${request.headers.host ?? 'localhost'}`);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body !== undefined;
  const response = await auth.handler(
    new Request(url, {
      method: request.method,
      headers: fromNodeHeaders(request.headers),
      body: hasBody ? JSON.stringify(request.body) : undefined,
    }),
  );
  reply.status(response.status);
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') reply.header(key, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  return response;
}

export type AuthRoutesOptions = {
  auth: Auth;
  db: Database;
  throttle: SignInThrottle;
  settings: SettingsStore;
  ipLimit: number;
  windowMs: number;
};

/**
 * Mounts better-auth under /api/auth. Sign-in, sign-up and password reset are limited per IP; sign-in is also
 * limited per account, counting only failures, so a flood against one e-mail from many IPs is still bounded.
 */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const { auth, throttle } = options;

  /**
   * Whether the account may be signed in on this clinic's site. An account with no role yet (made on the platform's
   * site, then 'Sou paciente') becomes a patient of the clinic where it signs in, as a sign-up there would.
   */
  async function belongsToSite(userId: string, clinic: ClinicSite): Promise<boolean> {
    const assignment = await assignmentOfUser(options.db, userId);
    if (assignment) return assignment.clinicId === clinic.id;
    if (await patientLimitReached(options.db, clinic)) return false;
    await enrolPatient(options.db, userId, clinic.id);
    return true;
  }

  /**
   * better-auth's own endpoints (get-session, update-user, change-password, list-sessions…) take the session cookie
   * too: a deactivated account is refused, a staff session past its inactivity or 12 h limit is ended here as it is
   * on our API, and a session that owes its second factor cannot manage the factor.
   */
  async function checkSessionOfAuthEndpoint(request: FastifyRequest): Promise<void> {
    const path = pathOf(request);
    if (SESSION_LIMITS_EXEMPT.has(path) || path.startsWith(OAUTH_CALLBACK_PREFIX)) return;
    if (!request.headers.cookie?.includes('session_token')) return;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    if (!session) return;
    await refuseDeactivatedAccount(options.db, session.user);
    const assignment = await assignmentOfUser(options.db, session.user.id);
    await enforceStaffSessionLimits({ db: options.db, settings: options.settings, log: request.log }, session.session, assignment?.role ?? null);
    if (SECOND_FACTOR_GUARDED.has(path) && session.user.twoFactorEnabled === true && session.session.twoFactorVerified !== true) {
      request.log.warn({ userId: session.user.id, path }, 'auth.two_factor.management_refused');
      throw new AppError('TWO_FACTOR_REQUIRED', messages.twoFactor.sessionCheckDescription);
    }
  }

  /**
   * 'Último Login': a session just handed out is a completed sign-in unless it still owes its second factor (an admin
   * who must enrol first, a Google sign-in of a user with a factor); those count when the factor is passed.
   */
  async function recordSignInOfStartedSession(token: string): Promise<void> {
    const started = await startedSession(options.db, token);
    if (!started) return;
    const required = twoFactorRequiredOf(started.role, (await options.settings.get()).requireAdminTwoFactor);
    if (owesSecondFactor({ twoFactor: { required, enabled: started.twoFactorEnabled, verified: started.twoFactorVerified } })) return;
    await recordSignIn(options.db, started.userId);
  }

  async function applySessionPolicy(startedToken: string | null): Promise<void> {
    if (startedToken && !(await options.settings.get()).allowMultipleSessions) await endOtherSessions(options.db, startedToken);
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    config: {
      access: 'public',
      rateLimit: {
        max: options.ipLimit,
        timeWindow: options.windowMs,
        allowList: (request: FastifyRequest) => !LIMITED_PATHS.has(pathOf(request)),
      },
    },
    preHandler: async (request) => {
      // No client of ours writes a path that the URL parser would rewrite: such a request is someone probing.
      if (rawPathOf(request) !== pathOf(request)) throw new AppError('NOT_FOUND');
      await checkSessionOfAuthEndpoint(request);
      if (request.method !== 'POST') return;
      const path = pathOf(request);
      const site = siteOf(request);
      if (path === SOCIAL_SIGN_IN_PATH && !(await options.settings.get()).googleLogin) {
        throw new AppError('FORBIDDEN', messages.settings.googleLoginOff);
      }
      if (path === SIGN_UP_PATH && site.kind === 'clinic' && (await patientLimitReached(options.db, site.clinic))) {
        throw new AppError('CONFLICT', messages.tenancy.patientLimitReached);
      }
      if (path !== SIGN_IN_PATH) return;
      const email = emailOf(request);
      if (email && (await throttle.isBlocked(email))) {
        request.log.warn({ ip: request.ip }, 'auth.sign_in.account_throttled');
        throw new AppError('RATE_LIMITED');
      }
    },
    handler: async (request, reply) => {
      const response = await forwardToAuth(auth, request, reply);
      const body = response.body ? await response.text() : null;
      const startedToken = startedSessionToken(response);
      if (request.method !== 'POST') {
        // A Google sign-in ends on its callback; an e-mail confirmation link signs in too.
        const path = pathOf(request);
        if (startedToken && (path.startsWith(OAUTH_CALLBACK_PREFIX) || SIGN_IN_STARTS.has(path))) await recordSignInOfStartedSession(startedToken);
        await applySessionPolicy(startedToken);
        return reply.send(body);
      }
      const path = pathOf(request);
      const site = siteOf(request);
      const answer = response.ok && body ? authAnswer.safeParse(JSON.parse(body)) : null;

      if (SECOND_FACTOR_PATHS.has(path) && answer?.success) {
        const userId = answer.data.user.id;
        if (path === VERIFY_TOTP_PATH) {
          const code = codeInBody.safeParse(request.body);
          if (!code.success || !(await claimTotpCode(options.db, userId, code.data.code))) {
            // The code was right but already spent: undo the sign-in it just made.
            if (startedToken) await deleteSessionByToken(options.db, startedToken);
            reply.removeHeader('set-cookie');
            request.log.warn({ userId }, 'auth.totp.replayed');
            return reply.status(401).send({ code: AUTH_ERROR_CODES.totpReused, message: messages.twoFactor.codeReused });
          }
        }
        // This session passed the second factor: a sign-in's new session, or the current one when enrolling.
        const verifiedToken = startedToken ?? answer.data.token;
        if (verifiedToken) await markSessionTwoFactorVerified(options.db, verifiedToken);
        // Only now is the sign-in complete: a right password alone does not clear the account's failures, nor
        // counts as 'Último Login'.
        if (answer.data.user.email) await throttle.reset(answer.data.user.email.toLowerCase());
        await recordSignIn(options.db, userId);
        request.log.info({ userId, method: path === VERIFY_TOTP_PATH ? 'totp' : 'backup_code' }, 'auth.two_factor.verified');
      }

      if (path === SIGN_UP_PATH && site.kind === 'clinic' && answer?.success) {
        // Signing up on a clinic's site makes a patient of that clinic (DESIGN.md §2 "White-label").
        await enrolPatient(options.db, answer.data.user.id, site.clinic.id);
      }
      if (path === SIGN_IN_PATH) {
        const email = emailOf(request);
        if (email && response.status === 401) {
          await throttle.recordFailure(email, request.ip);
          request.log.info({ ip: request.ip }, 'auth.sign_in.failed');
        }
        // A sign-in that still owes a code (twoFactorRedirect) is not a success yet.
        if (email && answer?.success) await throttle.reset(email);
        if (site.kind === 'clinic' && answer?.success && !(await belongsToSite(answer.data.user.id, site.clinic))) {
          // Someone else's account on this clinic's site: end the session just made and say where to go.
          if (answer.data.token) await deleteSessionByToken(options.db, answer.data.token);
          reply.removeHeader('set-cookie');
          return reply.status(403).send({ code: AUTH_ERROR_CODES.wrongClinic, message: messages.tenancy.wrongClinic });
        }
      }
      if (startedToken && SIGN_IN_STARTS.has(path)) await recordSignInOfStartedSession(startedToken);
      await applySessionPolicy(startedToken);
      return reply.send(body);
    },
  });
}
