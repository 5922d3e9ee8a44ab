import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { adminDashboard } from './repository.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/dashboard',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Indicadores, clínicas recentes e alertas', response: { 200: adminDashboardSchema, 401: errorResponseSchema, 403: errorResponseSchema } },
    },
    async () => adminDashboard(db),
  );
};
