import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { meResponseSchema } from '@carteirinha/shared/contracts/me';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireContext } from '../../plugins/access-control.ts';
import { meOf } from './service.ts';

export const meRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/me',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['sessão'],
        summary: 'Quem está logado, com a sua função e clínica',
        response: { 200: meResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => meOf(db, requireContext(request)),
  );

  // The web's session probe, asked on every page load: a signed-out visitor is an answer (null), not an error that
  // the browser would log as a failed request. A session that is refused (expired, another clinic's) is still a 401.
  app.get(
    '/api/session',
    {
      config: { access: 'authenticated', signedOutAllowed: true },
      schema: {
        tags: ['sessão'],
        summary: 'Quem está logado, ou null para um visitante sem sessão',
        response: { 200: meResponseSchema.nullable(), 401: errorResponseSchema },
      },
    },
    async (request) => (request.ctx ? meOf(db, request.ctx) : null),
  );
};
