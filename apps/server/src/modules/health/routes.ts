import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@carteirinha/shared/contracts/health';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { DatabaseHandle } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';

/** The readiness probe answers within this long, whatever holds the database (a full pool, a lock, a restart). */
export const READY_TIMEOUT_MS = 2_000;

/**
 * Two probes (issue 12 item 3). `/api/health` is liveness: the process answers; it never touches the database, so a
 * database outage does not make an orchestrator restart a server that will recover by itself. `/api/ready` is
 * readiness: the database answers within READY_TIMEOUT_MS and the server is not shutting down; a load balancer sends
 * traffic only while it is 200.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ database: DatabaseHandle }> = async (app, { database }) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

  app.get(
    '/api/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sistema'],
        summary: 'O processo do servidor está no ar (não consulta o banco de dados)',
        response: { 200: healthResponseSchema },
      },
    },
    async () => ({ status: 'ok' as const, database: database.kind }),
  );

  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sistema'],
        summary: 'O servidor está pronto para atender: banco de dados acessível e sem desligamento em curso',
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    async () => {
      if (closing || !(await database.ping(READY_TIMEOUT_MS))) throw new AppError('SERVICE_UNAVAILABLE');
      return { status: 'ok' as const, database: database.kind };
    },
  );
};
