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
import { assignmentOfUser, enrolPatient, enrolPatientOnFirstSignIn, patientLimitReached } from '../tenancy/service.ts';
import type { Auth } from './auth.ts';
import type { CallerReader } from './caller.ts';
import { refuseUnusableCallbackUrls } from './callback-urls.ts';
import type { SettingsStore } from '../settings/store.ts';
import { passwordPolicyProblem } from './password-policy.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { enforceStaffSessionLimits } from './session-limits.ts';
import { claimTotpCode } from './totp-replay.ts';
import { CAPTCHA_HEADER } from '@carteirinha/shared/contracts/captcha';
import type { Captcha } from '../captcha/service.ts';
import { PASSKEY_AUTH_PATHS } from '../passkeys/auth-plugin.ts';
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
const REQUEST_RESET_PATH = '/api/auth/request-password-reset';
/** Where a second factor is proven; a success marks the session as having passed it. */
const SECOND_FACTOR_PATHS = new Set([VERIFY_TOTP_PATH, VERIFY_BACKUP_CODE_PATH, PASSKEY_AUTH_PATHS.secondFactor]);
/** A passkey's second factor, and its options: what a session that owes the factor uses to pay it (ADR 029). */
const PASSKEY_SECOND_FACTOR_PATHS = new Set<string>([PASSKEY_AUTH_PATHS.secondFactorOptions, PASSKEY_AUTH_PATHS.secondFactor]);
/** Forms anyone may post, which a bot would fill by the thousand: they carry the captcha (ADR 029). */
const CAPTCHA_PATHS = new Set([SIGN_UP_PATH, REQUEST_RESET_PATH]);
/** Endpoints a bot would hammer: limited per IP (two-factor codes too: a 6-digit code must not be guessable). */
const LIMITED_PATHS = new Set([
  SIGN_IN_PATH,
  SIGN_UP_PATH,
  REQUEST_RESET_PATH,
  '/api/auth/reset-password',
  VERIFY_TOTP_PATH,
  VERIFY_BACKUP_CODE_PATH,
  PASSKEY_AUTH_PATHS.signInOptions,
  PASSKEY_AUTH_PATHS.signIn,
]);
/** Endpoints that start, end or do without a session: the staff time limits are not checked there. */
const SESSION_LIMITS_EXEMPT = new Set([...LIMITED_PATHS, SOCIAL_SIGN_IN_PATH, '/api/auth/sign-out', '/api/auth/verify-email']);
/** Where a session is handed out to someone who signed in or signed up (confirming the e-mail signs nobody in). */
const SIGN_IN_STARTS = new Set<string>([SIGN_IN_PATH, SIGN_UP_PATH, PASSKEY_AUTH_PATHS.signIn]);
/** Sign-ins that name an account, which must belong to the clinic of the site they happen on. */
const SITE_SIGN_IN_PATHS = new Set<string>([SIGN_IN_PATH, PASSKEY_AUTH_PATHS.signIn]);
const OAUTH_CALLBACK_PREFIX = '/api/auth/callback/';

const GET_SESSION_PATH = '/api/auth/get-session';
const LIST_SESSIONS_PATH = '/api/auth/list-sessions';
/**
 * Enrolling a second factor: open to a session that owes one only while the user has none yet (an admin who must
 * enrol first). With a factor, these read its secret or replace it, and wait for the code like everything else.
 */
const ENROLMENT_PATHS = new Set(['/api/auth/two-factor/enable', '/api/auth/two-factor/get-totp-uri']);
/**
 * Where a new password is set, and the field that carries it: sign-up, a reset or an invitation (both through
 * reset-password), and change-password. better-auth's set-password is server-only, so these are all the HTTP ways.
 */
const PASSWORD_FIELDS = new Map([
  [SIGN_UP_PATH, 'password'],
  ['/api/auth/reset-password', 'newPassword'],
  ['/api/auth/change-password', 'newPassword'],
]);

/** better-auth's session cookie, as `<token>.<signature>`; an empty value is the cookie being cleared. */
const SESSION_COOKIE = /^(?:__Secure-)?carteirinha\.session_token=([^;]+)/;

const emailInBody = z.object({ email: z.string().trim().toLowerCase() });
const codeInBody = z.object({ code: z.string().trim() });
const sessionList = z.array(z.record(z.string(), z.unknown()));
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

/** The new password in the body of a password-setting endpoint, if it is there as text. */
function newPasswordOf(request: FastifyRequest, path: string): string | null {
  const field = PASSWORD_FIELDS.get(path);
  if (!field || typeof request.body !== 'object' || request.body === null) return null;
  const value: unknown = Object.getOwnPropertyDescriptor(request.body, field)?.value;
  return typeof value === 'string' ? value : null;
}

/**
 * list-sessions answers with every session's token, and a token is the session itself: anyone who reads the list
 * (a script on the page, a shared screen) could become each of the user's devices. No client of ours needs them.
 */
function withoutSessionTokens(body: string): string {
  const parsed = sessionList.safeParse(JSON.parse(body));
  if (!parsed.success) return body;
  return JSON.stringify(parsed.data.map(({ token: _token, ...session }) => session));
}

/**
 * A session that owes its second factor (not enrolled yet, or signed in without the code) may read itself and finish
 * the factor; everything else of better-auth's — change the password or the e-mail, update the user, list or revoke
 * sessions, manage the factor, linked accounts — waits for the code, as our own API does (access-control.ts).
 * A list of what is allowed, so that an endpoint a library upgrade adds is closed too.
 */
function mayUseWhileOwingSecondFactor(path: string, hasFactor: boolean): boolean {
  if (path === GET_SESSION_PATH || PASSKEY_SECOND_FACTOR_PATHS.has(path)) return true;
  return ENROLMENT_PATHS.has(path) && !hasFactor;
}

function secondFactorMethodOf(path: string): 'totp' | 'backup_code' | 'passkey' {
  if (path === VERIFY_TOTP_PATH) return 'totp';
  return path === VERIFY_BACKUP_CODE_PATH ? 'backup_code' : 'passkey';
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
  // better-auth records the address of each session from X-Forwarded-For: it gets the one Fastify worked out under
  // TRUST_PROXY, never the header as the client wrote it.
  const headers = fromNodeHeaders(request.headers);
  headers.set('x-forwarded-for', request.ip);
  const response = await auth.handler(
    new Request(url, {
      method: request.method,
      headers,
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
  /** The caller's one-statement read, shared with the API guard. */
  callers: CallerReader;
  throttle: SignInThrottle;
  settings: SettingsStore;
  captcha: Captcha;
  /** Failed sign-ins from one address after which its sign-ins carry the captcha too. */
  captchaAfterSignInFailures: number;
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
    // A site awaiting 'Aprovar Cadastro' takes no patients (its team, who have a role, still sign in there).
    if (clinic.awaitingApproval) return false;
    if (await patientLimitReached(options.db, clinic)) return false;
    return enrolPatientOnFirstSignIn(options.db, userId, clinic.id);
  }

  /**
   * better-auth's own endpoints (get-session, update-user, change-password, list-sessions…) take the session cookie
   * too, and get the rules of our API (access-control.ts): a deactivated account is refused, a staff session past its
   * inactivity or 12 h limit is ended, on a clinic's site only that clinic's people are signed in (admins belong to
   * the platform's site), and a session that owes its second factor waits for it.
   */
  async function checkSessionOfAuthEndpoint(request: FastifyRequest): Promise<void> {
    const path = pathOf(request);
    if (SESSION_LIMITS_EXEMPT.has(path) || path.startsWith(OAUTH_CALLBACK_PREFIX)) return;
    if (!request.headers.cookie?.includes('session_token')) return;
    const caller = await options.callers.read(request.headers.cookie);
    if (!caller) return;
    await refuseDeactivatedAccount(options.db, { id: caller.userId, deactivatedAt: caller.deactivatedAt });
    const role = caller.role;
    await enforceStaffSessionLimits({ db: options.db, settings: options.settings, log: request.log }, { id: caller.sessionId, createdAt: caller.createdAt, lastActiveAt: caller.lastActiveAt }, role, options.callers.clock());
    const site = siteOf(request);
    if (site.kind === 'clinic' && caller.clinicId !== site.clinic.id) {
      request.log.warn({ userId: caller.userId, path }, 'auth.session.wrong_clinic');
      throw new AppError('UNAUTHENTICATED', messages.tenancy.wrongClinic);
    }
    const twoFactor = {
      required: twoFactorRequiredOf(role, (await options.settings.get()).requireAdminTwoFactor),
      enabled: caller.twoFactorEnabled,
      verified: caller.twoFactorVerified,
    };
    // A passkey is a factor too: an account that has one does not enrol a TOTP secret on a password alone.
    if (owesSecondFactor({ twoFactor }) && !mayUseWhileOwingSecondFactor(path, twoFactor.enabled || caller.hasPasskey)) {
      request.log.warn({ userId: caller.userId, path }, 'auth.two_factor.session_refused');
      throw new AppError('TWO_FACTOR_REQUIRED', messages.twoFactor.sessionCheckDescription);
    }
  }

  /**
   * The captcha (ADR 029): always on sign-up and reset requests; on a sign-in once its address has failed a few
   * times (any account), so a person who mistypes once is not asked and a guesser pays for every further try.
   */
  async function checkCaptcha(request: FastifyRequest, path: string): Promise<void> {
    if (!options.captcha.enabled) return;
    const asked = CAPTCHA_PATHS.has(path) || (path === SIGN_IN_PATH && (await throttle.addressFailures(request.ip)) >= options.captchaAfterSignInFailures);
    if (!asked) return;
    const header = request.headers[CAPTCHA_HEADER];
    const verdict = await options.captcha.verify(typeof header === 'string' ? header : undefined);
    if (verdict.ok) return;
    request.log.info({ path, reason: verdict.reason }, 'auth.captcha.refused');
    throw new AppError('CAPTCHA_FAILED');
  }

  /** The password rules of ADR 007 wherever a person sets one; the seed and server code set theirs directly. */
  async function checkNewPassword(request: FastifyRequest, path: string): Promise<void> {
    const password = newPasswordOf(request, path);
    if (password === null) return;
    const problem = passwordPolicyProblem(password, (await options.settings.get()).passwordMinLength);
    if (!problem) return;
    request.log.info({ path }, 'auth.password.refused');
    throw new AppError('VALIDATION', problem);
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
    preHandler: async (request, reply) => {
      // No client of ours writes a path that the URL parser would rewrite: such a request is someone probing.
      if (rawPathOf(request) !== pathOf(request)) throw new AppError('NOT_FOUND');
      refuseUnusableCallbackUrls(request);
      await checkSessionOfAuthEndpoint(request);
      if (request.method !== 'POST') return;
      const path = pathOf(request);
      const site = siteOf(request);
      if (path === SOCIAL_SIGN_IN_PATH && !(await options.settings.get()).googleLogin) {
        throw new AppError('FORBIDDEN', messages.settings.googleLoginOff);
      }
      if (path === SIGN_UP_PATH && site.kind === 'clinic' && site.clinic.awaitingApproval) {
        throw new AppError('FORBIDDEN', messages.tenancy.awaitingApprovalSignUp);
      }
      if (path === SIGN_UP_PATH && site.kind === 'clinic' && (await patientLimitReached(options.db, site.clinic))) {
        throw new AppError('CONFLICT', messages.tenancy.patientLimitReached);
      }
      await checkNewPassword(request, path);
      if (path !== SIGN_IN_PATH) return checkCaptcha(request, path);
      const email = emailOf(request);
      if (!email) return;
      const verdict = await throttle.check(email, request.ip);
      if (!verdict.allowed) {
        request.log.warn({ ip: request.ip, reason: verdict.reason }, 'auth.sign_in.throttled');
        reply.header('retry-after', String(verdict.retryAfterSeconds));
        throw new AppError('RATE_LIMITED');
      }
      await checkCaptcha(request, path);
    },
    handler: async (request, reply) => {
      const response = await forwardToAuth(auth, request, reply);
      let body = response.body ? await response.text() : null;
      // better-auth answers a path it does not know with an empty 404: ours has the API's error body.
      if (response.status === 404 && !body) throw new AppError('ROUTE_NOT_FOUND');
      if (pathOf(request) === LIST_SESSIONS_PATH && response.ok && body) {
        body = withoutSessionTokens(body);
        reply.removeHeader('content-length');
      }
      const startedToken = startedSessionToken(response);
      if (request.method !== 'POST') {
        // A Google sign-in ends on its callback.
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
        if (answer.data.user.email) await throttle.recordSuccess(answer.data.user.email.toLowerCase(), request.ip);
        await recordSignIn(options.db, userId);
        request.log.info({ userId, method: secondFactorMethodOf(path) }, 'auth.two_factor.verified');
      }

      if (path === SIGN_UP_PATH && site.kind === 'clinic' && answer?.success && startedToken) {
        // Signing up on a clinic's site makes a patient of that clinic (DESIGN.md §2 "White-label"). A sign-up of a
        // registered address answers alike but makes no account nor session (auth.ts): nobody is enrolled then.
        await enrolPatient(options.db, answer.data.user.id, site.clinic.id);
      }
      if (path === SIGN_IN_PATH) {
        const email = emailOf(request);
        if (email && response.status === 401) {
          await throttle.recordFailure(email, request.ip);
          request.log.info({ ip: request.ip }, 'auth.sign_in.failed');
        }
        // A sign-in that still owes a code (twoFactorRedirect) is not a success yet.
        if (email && answer?.success) await throttle.recordSuccess(email, request.ip);
      }
      if (path === PASSKEY_AUTH_PATHS.signIn && answer?.success && answer.data.user.email) {
        await throttle.recordSuccess(answer.data.user.email.toLowerCase(), request.ip);
      }
      if (SITE_SIGN_IN_PATHS.has(path)) {
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
