import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@carteirinha/shared/contracts/health';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { pingDatabase, type DatabaseHandle } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, { database }) => {
  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sistema'],
        summary: 'Estado do servidor e do banco de dados',
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    async () => {
      if (!(await pingDatabase(database.db))) throw new AppError('SERVICE_UNAVAILABLE');
      return { status: 'ok' as const, database: database.kind };
    },
  );
};
