import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromNodeHeaders } from 'better-auth/node';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import type { Auth } from './auth.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';

const SIGN_IN_PATH = '/api/auth/sign-in/email';
/** Endpoints a bot would hammer: limited per IP. */
const LIMITED_PATHS = new Set([SIGN_IN_PATH, '/api/auth/sign-up/email', '/api/auth/request-password-reset', '/api/auth/reset-password']);

const emailInBody = z.object({ email: z.string().trim().toLowerCase() });

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
      if (request.method !== 'POST' || pathOf(request) !== SIGN_IN_PATH) return;
      const email = emailOf(request);
      if (email && (await throttle.isBlocked(email))) {
        request.log.warn({ ip: request.ip }, 'auth.sign_in.account_throttled');
        throw new AppError('RATE_LIMITED');
      }
    },
    handler: async (request, reply) => {
      const response = await forwardToAuth(auth, request, reply);
      if (request.method === 'POST' && pathOf(request) === SIGN_IN_PATH) {
        const email = emailOf(request);
        if (email && response.status === 401) {
          await throttle.recordFailure(email, request.ip);
          request.log.info({ ip: request.ip }, 'auth.sign_in.failed');
        }
        if (email && response.ok) await throttle.reset(email);
      }
      return reply.send(response.body ? await response.text() : null);
    },
  });
}
