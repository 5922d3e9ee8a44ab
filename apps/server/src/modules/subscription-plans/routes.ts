import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { subscriptionPlanFormSchema, subscriptionPlanListSchema, subscriptionPlanSchema } from '@carteirinha/shared/contracts/subscription-plans';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { findSubscriptionPlan } from './repository.ts';
import { allClinicPlans, createClinicPlan, plansOnSale, updateClinicPlan } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

export const subscriptionPlanRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/clinic/subscription-plans',
    {
      config: { access: 'subscriptionPlans:read' },
      schema: { tags: ['clínica'], summary: 'Planos de pacientes da clínica', response: { 200: subscriptionPlanListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => allClinicPlans(tx, tenant)) };
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

  app.post(
    '/api/clinic/subscription-plans',
    {
      // A double tap on 'Salvar' (or a retry after a lost answer) creates one plan (issue 14: Idempotency-Key).
      config: { access: 'subscriptionPlans:write', idempotent: true },
      schema: {
        tags: ['clínica'],
        summary: 'Cria um plano de pacientes da clínica',
        body: subscriptionPlanFormSchema,
        response: { 201: subscriptionPlanSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const plan = await createClinicPlan(db, tenant, request.body, now());
      return reply.status(201).send(plan);
    },
  );

  app.put(
    '/api/clinic/subscription-plans/:id',
    {
      config: { access: 'subscriptionPlans:write' },
      schema: {
        tags: ['clínica'],
        summary: 'Altera um plano de pacientes da clínica (desativar mantém as assinaturas existentes)',
        params: idParamsSchema,
        body: subscriptionPlanFormSchema,
        response: { 200: subscriptionPlanSchema, ...writeErrors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return updateClinicPlan(db, tenant, request.params.id, request.body, now());
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
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => plansOnSale(tx, tenant)) };
    },
  );
};
