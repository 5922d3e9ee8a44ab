import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { and, eq, ne, sql } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { siteOf } from '../../plugins/host-site.ts';
import type { ClinicSite } from '../tenancy/host-site.ts';
import { assignmentOfUser, enrolPatient, patientLimitReached } from '../tenancy/service.ts';
import type { Auth } from './auth.ts';
import type { SettingsStore } from '../settings/store.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { enforceStaffSessionLimits } from './session-limits.ts';
import { claimTotpCode } from './totp-replay.ts';

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

/** better-auth's session cookie, as `<token>.<signature>`; an empty value is the cookie being cleared. */
const SESSION_COOKIE = /^(?:__Secure-)?carteirinha\.session_token=([^;]+)/;

const emailInBody = z.object({ email: z.string().trim().toLowerCase() });
const codeInBody = z.object({ code: z.string().trim() });
const authAnswer = z.object({ token: z.string().nullish(), user: z.object({ id: z.string(), email: z.string().optional() }) });

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? request.url;
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

/**
 * 'Sessões múltiplas' off: a new sign-in ends the user's other sessions. Done on the session the answer hands out,
 * so it covers password, two-factor and Google sign-ins alike, and never runs while a two-factor step is pending.
 */
async function endOtherSessions(db: Database, token: string): Promise<void> {
  const owner = sql`(SELECT ${sessions.userId} FROM ${sessions} WHERE ${sessions.token} = ${token})`;
  await db.delete(sessions).where(and(eq(sessions.userId, owner), ne(sessions.token, token)));
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
   * too: a staff session past its inactivity or 12 h limit is ended here as it is on our API.
   */
  async function enforceSessionLimits(request: FastifyRequest): Promise<void> {
    const path = pathOf(request);
    if (SESSION_LIMITS_EXEMPT.has(path) || path.startsWith('/api/auth/callback/')) return;
    if (!request.headers.cookie?.includes('session_token')) return;
    const session = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
    if (!session) return;
    const assignment = await assignmentOfUser(options.db, session.user.id);
    await enforceStaffSessionLimits({ db: options.db, settings: options.settings, log: request.log }, session.session, assignment?.role ?? null);
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
      await enforceSessionLimits(request);
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
            if (startedToken) await options.db.delete(sessions).where(eq(sessions.token, startedToken));
            reply.removeHeader('set-cookie');
            request.log.warn({ userId }, 'auth.totp.replayed');
            return reply.status(401).send({ code: 'TOTP_REUSED', message: messages.twoFactor.codeReused });
          }
        }
        // This session passed the second factor: a sign-in's new session, or the current one when enrolling.
        const verifiedToken = startedToken ?? answer.data.token;
        if (verifiedToken) await options.db.update(sessions).set({ twoFactorVerified: true }).where(eq(sessions.token, verifiedToken));
        // Only now is the sign-in complete: a right password alone does not clear the account's failures.
        if (answer.data.user.email) await throttle.reset(answer.data.user.email.toLowerCase());
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
          if (answer.data.token) await options.db.delete(sessions).where(eq(sessions.token, answer.data.token));
          reply.removeHeader('set-cookie');
          return reply.status(403).send({ code: 'WRONG_CLINIC', message: messages.tenancy.wrongClinic });
        }
      }
      await applySessionPolicy(startedToken);
      return reply.send(body);
    },
  });
}
