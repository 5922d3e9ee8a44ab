import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminDashboardSchema } from '@carteirinha/shared/contracts/dashboard';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { adminDashboard } from './repository.ts';

export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/admin/dashboard',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Indicadores, clínicas recentes e alertas', response: { 200: adminDashboardSchema, 401: errorResponseSchema, 403: errorResponseSchema } },
    },
    // The app's clock: the alerts' windows (failed events of the last 14 days, trials ending) read it, not the machine's.
    async () => adminDashboard(db, now()),
  );
};
