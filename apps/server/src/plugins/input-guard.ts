import type { FastifyInstance } from 'fastify';
import { messages } from '@carteirinha/shared/messages';
import { AppError } from '../lib/app-error.ts';

const NUL = '\u0000';
/**
 * Deeper than any contract of ours nests (a few levels): a body like `[[[[…]]]]` a hundred thousand levels deep
 * parses, but anything that walks it recursively afterwards (better-auth re-serialises the body) overflows the stack.
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * What in a request value the database or a library cannot take: a NUL character in any string or object key, or
 * nesting deeper than MAX_INPUT_DEPTH. Walks with its own stack, so the walk itself cannot overflow.
 */
export function unacceptableInput(value: unknown): 'nul' | 'depth' | null {
  const pending: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const current = pending.pop();
    if (!current) break;
    const { value: item, depth } = current;
    if (typeof item === 'string') {
      if (item.includes(NUL)) return 'nul';
    } else if (item !== null && typeof item === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return 'depth';
      for (const [key, child] of Object.entries(item)) {
        if (key.includes(NUL)) return 'nul';
        pending.push({ value: child, depth: depth + 1 });
      }
    }
  }
  return null;
}

/**
 * PostgreSQL text cannot hold NUL: a query with one fails in the database, so a NUL that reached a repository (a
 * search term, a sign-in e-mail, a name) answered 500. No field of ours means to accept one, so every /api request —
 * better-auth's /api/auth/* included, which has no schema of ours — is refused with 400 before any validation or
 * handler runs: once, here, instead of in every schema. Absurdly deep bodies are refused on the same walk.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const problem = unacceptableInput(request.params) ?? unacceptableInput(request.query) ?? unacceptableInput(request.body);
    if (problem === 'nul') throw new AppError('VALIDATION', messages.validation.invalidCharacter);
    if (problem === 'depth') throw new AppError('VALIDATION', messages.validation.invalidRequest);
  });
}
