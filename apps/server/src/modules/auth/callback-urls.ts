import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';

/** Where better-auth reads the address to send the browser to after a link or a sign-in (query or JSON body). */
const CALLBACK_FIELDS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'] as const;
const fieldsShape = z.object(Object.fromEntries(CALLBACK_FIELDS.map((field) => [field, z.unknown()]))).partial();

/** A path of this site ('/entrar') or an absolute URL: what better-auth can build a redirect from. */
function isUsableCallback(value: unknown): boolean {
  if (value === undefined) return true;
  if (typeof value !== 'string') return false;
  return (value.startsWith('/') && !value.startsWith('//')) || URL.canParse(value);
}

/**
 * better-auth builds its redirects with `new URL(callbackURL)` after its own checks, and `new URL('abc')` throws: a
 * confirmation link with `callbackURL=abc` answered 500. Anything that is neither a path nor an absolute URL is
 * refused with 400 first; whether an absolute URL is a trusted origin stays better-auth's check.
 */
export function refuseUnusableCallbackUrls(request: FastifyRequest): void {
  for (const source of [request.query, request.body]) {
    const fields = fieldsShape.safeParse(source);
    if (!fields.success) continue;
    if (!CALLBACK_FIELDS.every((field) => isUsableCallback(fields.data[field]))) throw new AppError('VALIDATION');
  }
}
