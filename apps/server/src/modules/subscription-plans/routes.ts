import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { subscriptionPlanListSchema, subscriptionPlanSchema } from '@carteirinha/shared/contracts/subscription-plans';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { findSubscriptionPlan, listSubscriptionPlans } from './repository.ts';

const errors = errorResponses(400, 401, 403, 404);

export const subscriptionPlanRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/clinic/subscription-plans',
    {
      config: { access: 'subscriptionPlans:read' },
      schema: { tags: ['clínica'], summary: 'Planos de pacientes da clínica', response: { 200: subscriptionPlanListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => listSubscriptionPlans(tx, tenant, { activeOnly: false })) };
    },
  );

  app.get(
    '/api/clinic/subscription-plans/:id',
    {
      config: { access: 'subscriptionPlans:read' },
      schema: {
        tags: ['clínica'],
        summary: 'Um plano de pacientes da clínica',
        params: idParamsSchema,
        response: { 200: subscriptionPlanSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const plan = await withTenantScope(db, tenant.clinicId, (tx) => findSubscriptionPlan(tx, tenant, request.params.id));
      if (!plan) throw new AppError('NOT_FOUND');
      return plan;
    },
  );

  app.get(
    '/api/patient/subscription-plans',
    {
      // The plans to subscribe to: the programme, which a closed clinic does not offer (ADR 010).
      config: { access: 'patient:programme' },
      schema: { tags: ['paciente'], summary: 'Planos disponíveis na clínica do paciente', response: { 200: subscriptionPlanListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => listSubscriptionPlans(tx, tenant, { activeOnly: true })) };
    },
  );
};
