import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import {
  adminPayoutListQuerySchema,
  adminPayoutPageSchema,
  clinicPayoutListSchema,
  payoutDetailSchema,
  payoutSchema,
  payoutStatusChangeSchema,
} from '@carteirinha/shared/contracts/payouts';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireContext, requireTenant } from '../../plugins/access-control.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { adminPayouts, changePayoutStatus, clinicPayoutDetail, clinicPayouts } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409);

/** Financeiro (the clinic's payouts) and the platform admin's Repasses. */
export const payoutRoutes: FastifyPluginAsyncZod<{ db: Database; jobs: Pick<JobRunner, 'enqueue'>; now: () => Date }> = async (app, { db, jobs, now }) => {
  app.get(
    '/api/clinic/payouts',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Financeiro: os quatro indicadores e os repasses da clínica, do mais recente', response: { 200: clinicPayoutListSchema, ...errors } },
    },
    async (request) => clinicPayouts(db, requireTenant(request).clinicId, now()),
  );

  app.get(
    '/api/clinic/payouts/:id',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Um repasse da clínica com os seus lançamentos', params: idParamsSchema, response: { 200: payoutDetailSchema, ...errors } },
    },
    async (request) => clinicPayoutDetail(db, requireTenant(request).clinicId, request.params.id),
  );

  app.get(
    '/api/admin/payouts',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Repasses de todas as clínicas', querystring: adminPayoutListQuerySchema, response: { 200: adminPayoutPageSchema, ...errors } },
    },
    async (request) => adminPayouts(db, request.query),
  );

  app.post(
    '/api/admin/payouts/:id/status',
    {
      config: { access: 'platform:manage' },
      schema: {
        tags: ['admin'],
        summary: 'Marca um repasse como processando ou pago (a clínica é avisada por email quando pago)',
        params: idParamsSchema,
        body: payoutStatusChangeSchema,
        response: { 200: payoutSchema, ...writeErrors },
      },
    },
    async (request) => changePayoutStatus(db, jobs, { userId: requireContext(request).userId }, request.params.id, request.body, now()),
  );
};
