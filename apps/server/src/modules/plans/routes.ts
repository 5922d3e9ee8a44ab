import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import {
  planFormSchema,
  planSummarySchema,
  platformPlanListSchema,
  platformPlanSchema,
  publicPlatformPlanListSchema,
} from '@carteirinha/shared/contracts/plans';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireContext } from '../../plugins/access-control.ts';
import { listPlans, listPlansForSale, planSummary } from './repository.ts';
import { createPlan, deletePlan, updatePlan } from './service.ts';

const errors = errorResponses(400, 401, 403, 404, 409);
const admin = { access: 'platform:manage' } as const;

/** /admin/planos: the plans the platform sells to clinics; and the active ones, for the landing page's #pricing. */
export const planRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/public/plans',
    {
      config: { access: 'public' },
      schema: { tags: ['onboarding'], summary: 'Planos ativos da plataforma, como a página inicial os oferece', response: { 200: publicPlatformPlanListSchema } },
    },
    async () => ({ items: await listPlansForSale(db) }),
  );

  app.get(
    '/api/admin/plans',
    { config: admin, schema: { tags: ['admin'], summary: 'Lista os planos da plataforma', response: { 200: platformPlanListSchema, ...errors } } },
    async () => ({ items: await listPlans(db) }),
  );

  app.get(
    '/api/admin/plans/summary',
    { config: admin, schema: { tags: ['admin'], summary: 'Planos, assinaturas ativas e MRR', response: { 200: planSummarySchema, ...errors } } },
    async () => planSummary(db),
  );

  app.post(
    '/api/admin/plans',
    { config: admin, schema: { tags: ['admin'], summary: 'Cria um plano', body: planFormSchema, response: { 201: platformPlanSchema, ...errors } } },
    async (request, reply) => reply.status(201).send(await createPlan(db, { userId: requireContext(request).userId }, request.body)),
  );

  app.put(
    '/api/admin/plans/:id',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Altera um plano', params: idParamsSchema, body: planFormSchema, response: { 200: platformPlanSchema, ...errors } },
    },
    async (request) => updatePlan(db, { userId: requireContext(request).userId }, request.params.id, request.body),
  );

  app.delete(
    '/api/admin/plans/:id',
    { config: admin, schema: { tags: ['admin'], summary: 'Exclui um plano sem clínicas', params: idParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deletePlan(db, { userId: requireContext(request).userId }, request.params.id);
      return reply.status(204).send(null);
    },
  );
};
