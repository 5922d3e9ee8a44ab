import type { FastifyInstance, FastifyRequest } from 'fastify';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from '../lib/app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'webhook': a provider's server posts here from its own address (a payment notice), authenticated by the
     * route itself (a signature), so the browser rules below do not apply to it.
     */
    crossOrigin?: 'webhook';
  }
}

/** Methods that change nothing: a page of another site may send them without asking (and reads nothing back). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The origin the request was sent to: its scheme and Host. Each clinic's host is its own origin. */
function ownOriginOf(request: FastifyRequest): string | null {
  return originOf(`${request.protocol}://${request.host}`);
}

/** Whether a page of this origin may write here: the request's own origin, or the platform's (PUBLIC_URL). */
function isTrustedOrigin(request: FastifyRequest, origin: string, platformOrigin: string | null): boolean {
  const candidate = originOf(origin);
  return candidate !== null && (candidate === platformOrigin || candidate === ownOriginOf(request));
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The media type of the body, without its parameters (`application/json; charset=utf-8` is JSON). */
function mediaTypeOf(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Upload routes say so in their schema (`consumes`, which the OpenAPI document shows too). */
function isUploadRoute(request: FastifyRequest): boolean {
  return request.routeOptions.schema?.consumes?.includes('multipart/form-data') === true;
}

/** The browser rules apply to writes under /api, except on a route a provider's server posts to. */
function isGuardedWrite(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method) && request.url.startsWith('/api/') && request.routeOptions.config.crossOrigin !== 'webhook';
}

/**
 * The session cookie goes with every request the browser makes, whichever page asks, so a write must prove it
 * comes from one of our own pages (issue 12, item 14; ADR 009):
 * - `Sec-Fetch-Site: cross-site` is refused;
 * - an `Origin` must be the request's own origin or PUBLIC_URL's (better-auth's trustedOrigins, modules/auth/auth.ts);
 * - a body must be JSON (multipart on upload routes): a form or `text/plain` post, which a foreign page can send
 *   without a preflight, is refused.
 * A request with neither header comes from no browser (a script, a server, the tests' inject) and carries no
 * ambient cookie of someone else, so it passes; the rules on the body still apply.
 *
 * Register it before the access control: a foreign page's request is refused before its cookie is even read. The
 * body's type is checked after the access control (preParsing, before any parser runs), so a caller without the
 * right still hears 401/403 first.
 */
export function registerRequestOrigin(app: FastifyInstance, deps: { publicUrl: string }): void {
  const platformOrigin = originOf(deps.publicUrl);
  app.addHook('onRequest', async (request) => {
    if (!isGuardedWrite(request)) return;
    const origin = request.headers.origin;
    if (request.headers['sec-fetch-site'] === 'cross-site' || (origin !== undefined && !isTrustedOrigin(request, origin, platformOrigin))) {
      request.log.warn({ origin, fetchSite: request.headers['sec-fetch-site'], method: request.method, path: request.routeOptions.url }, 'request.cross_site_refused');
      throw new AppError('CROSS_SITE_REFUSED');
    }
  });
  app.addHook('preParsing', async (request) => {
    if (!isGuardedWrite(request) || !hasBody(request)) return;
    const upload = isUploadRoute(request);
    if (mediaTypeOf(request) !== (upload ? 'multipart/form-data' : 'application/json')) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', upload ? messages.tenancy.invalidImage : undefined);
    }
  });
}
