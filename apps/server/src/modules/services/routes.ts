import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import {
  priceHistorySchema,
  priceTableQuerySchema,
  priceTableSchema,
  serviceFormSchema,
  serviceListSchema,
  serviceRemovalSchema,
  serviceSchema,
} from '@carteirinha/shared/contracts/services';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { siteOf } from '../../plugins/host-site.ts';
import { createService, listClinicServices, publicPriceTable, removeService, restoreService, serviceHistory, updateService } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Serviços: the clinic's price list with its card prices and their history, and the public price table of its site. */
export const serviceRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/clinic/services',
    {
      // The desk reads it too: 'Registrar Atendimento' offers the active services.
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: 'Serviços da clínica (tabela de preços), com o preço do cartão em cada plano à venda', response: { 200: serviceListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => listClinicServices(tx, tenant)) };
    },
  );

  app.post(
    '/api/clinic/services',
    {
      config: { access: 'clinic:manage', idempotent: true },
      schema: { tags: ['clínica'], summary: 'Cria um serviço da clínica', body: serviceFormSchema, response: { 201: serviceSchema, ...writeErrors } },
    },
    async (request, reply) => reply.status(201).send(await createService(db, requireTenant(request), request.body, now())),
  );

  app.put(
    '/api/clinic/services/:id',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Altera um serviço (o preço anterior fica no histórico com as datas)',
        params: idParamsSchema,
        body: serviceFormSchema,
        response: { 200: serviceSchema, ...writeErrors },
      },
    },
    async (request) => updateService(db, requireTenant(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/api/clinic/services/:id',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Exclui um serviço; um serviço já usado em atendimentos é arquivado',
        params: idParamsSchema,
        response: { 200: serviceRemovalSchema, ...writeErrors },
      },
    },
    async (request) => removeService(db, requireTenant(request), request.params.id, now()),
  );

  app.post(
    '/api/clinic/services/:id/restore',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Reativa um serviço arquivado', params: idParamsSchema, response: { 200: serviceSchema, ...writeErrors } },
    },
    async (request) => restoreService(db, requireTenant(request), request.params.id, now()),
  );

  app.get(
    '/api/clinic/services/:id/price-history',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Histórico de preços de um serviço', params: idParamsSchema, response: { 200: priceHistorySchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => serviceHistory(tx, tenant, request.params.id)) };
    },
  );

  app.get(
    '/api/public/price-table',
    {
      config: { access: 'public' },
      schema: {
        tags: ['sistema'],
        summary: 'Tabela de preços do site da clínica: hoje, ou como estava ao fim de um dia passado (date=aaaa-mm-dd)',
        querystring: priceTableQuerySchema,
        response: { 200: priceTableSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const site = siteOf(request);
      // Only on a clinic's own site; a site awaiting approval publishes no prices yet.
      if (site.kind !== 'clinic' || site.clinic.awaitingApproval) throw new AppError('NOT_FOUND');
      const clinic = site.clinic;
      return withTenantScope(db, clinic.id, (tx) => publicPriceTable(tx, { clinicId: clinic.id }, request.query.date, now()));
    },
  );
};
