import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dependentCreateSchema, dependentsOverviewSchema, dependentUpdateSchema } from '@carteirinha/shared/contracts/dependents';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import { requireTenant } from '../../plugins/access-control.ts';
import { addDependent, listDependents, removeDependent, updateDependent, type DependentDeps } from './service.ts';

type DependentRouteOptions = DependentDeps;

/**
 * The holder's dependents (issue 27). Reading, correcting and taking one off are the patient's own (`patient:self`,
 * kept while the clinic is suspended, ADR 010: their data, and a removal only lowers what they pay); adding one
 * issues a card of the programme, so it is `patient:programme` and stops with the clinic.
 */
export const dependentRoutes: FastifyPluginAsyncZod<DependentRouteOptions> = async (app, options) => {
  const deps = { db: options.db, jobs: options.jobs, now: options.now };

  app.get(
    '/api/patient/dependents',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Os dependentes cobertos pelo plano, com o cartão de cada um e o preço com um a mais ou a menos',
        response: { 200: dependentsOverviewSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => listDependents(options.db, requireTenant(request)),
  );

  app.post(
    '/api/patient/dependents',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Adiciona um dependente (dentro do max_members do plano); o cartão dele é emitido em seguida',
        body: dependentCreateSchema,
        response: { 201: dependentsOverviewSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const overview = await addDependent(deps, tenant, request.body);
      request.log.info({ userId: tenant.userId }, 'patient.dependent_added');
      return reply.status(201).send(overview);
    },
  );

  app.patch(
    '/api/patient/dependents/:id',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Corrige nome, data de nascimento e parentesco de um dependente (o CPF não muda)',
        params: idParamsSchema,
        body: dependentUpdateSchema,
        response: { 200: dependentsOverviewSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => updateDependent(deps, requireTenant(request), request.params.id, request.body),
  );

  app.delete(
    '/api/patient/dependents/:id',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Remove um dependente do plano: o cartão dele deixa de valer e o preço cai a partir da próxima cobrança',
        params: idParamsSchema,
        response: { 200: dependentsOverviewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const overview = await removeDependent(deps, tenant, request.params.id);
      request.log.info({ userId: tenant.userId }, 'patient.dependent_removed');
      return overview;
    },
  );
};
