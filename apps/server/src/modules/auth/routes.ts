import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { sessions } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { siteOf } from '../../plugins/host-site.ts';
import { clinicIdOfUser, enrolPatient, patientLimitReached } from '../tenancy/service.ts';
import type { Auth } from './auth.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
const SIGN_UP_PATH = '/api/auth/sign-up/email';
/** Endpoints a bot would hammer: limited per IP. */
const LIMITED_PATHS = new Set([SIGN_IN_PATH, SIGN_UP_PATH, '/api/auth/request-password-reset', '/api/auth/reset-password']);

const emailInBody = z.object({ email: z.string().trim().toLowerCase() });
const authAnswer = z.object({ token: z.string().nullish(), user: z.object({ id: z.string() }) });

function pathOf(request: FastifyRequest): string {
  return request.url.split('?', 1)[0] ?? request.url;
}

function emailOf(request: FastifyRequest): string | null {
  const parsed = emailInBody.safeParse(request.body);
  return parsed.success ? parsed.data.email : null;
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
  ipLimit: number;
  windowMs: number;
};

/**
 * Mounts better-auth under /api/auth. Sign-in, sign-up and password reset are limited per IP; sign-in is also
 * limited per account, counting only failures, so a flood against one e-mail from many IPs is still bounded.
 */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const { auth, throttle } = options;

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
      if (request.method !== 'POST') return;
      const path = pathOf(request);
      const site = siteOf(request);
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
      if (request.method !== 'POST') return reply.send(body);
      const path = pathOf(request);
      const site = siteOf(request);
      const answer = response.ok && body ? authAnswer.safeParse(JSON.parse(body)) : null;

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
        if (email && response.ok) await throttle.reset(email);
        if (site.kind === 'clinic' && answer?.success && (await clinicIdOfUser(options.db, answer.data.user.id)) !== site.clinic.id) {
          // Someone else's account on this clinic's site: end the session just made and say where to go.
          if (answer.data.token) await options.db.delete(sessions).where(eq(sessions.token, answer.data.token));
          reply.removeHeader('set-cookie');
          return reply.status(403).send({ code: 'WRONG_CLINIC', message: messages.tenancy.wrongClinic });
        }
      }
      return reply.send(body);
    },
  });
}
