import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { createVisitRequestSchema, visitListQuerySchema, visitSchema } from '@carteirinha/shared/contracts/visits';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { listClinicVisits } from './repository.ts';
import { cancelVisit, createVisit } from './service.ts';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';

const errors = errorResponses(400, 401, 403);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Atendimentos: the clinic's visits, and 'Registrar Atendimento' after a valid card. */
export const visitRoutes: FastifyPluginAsyncZod<{ db: Database; now: () => Date }> = async (app, { db, now }) => {
  app.get(
    '/api/clinic/visits',
    {
      config: { access: 'clinic:read' },
      schema: {
        tags: ['clínica'],
        summary: 'Atendimentos da clínica, do mais recente (q: paciente ou serviço; cardId: histórico de um cartão)',
        querystring: visitListQuerySchema,
        response: { 200: keysetPageOf(visitSchema), ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const { items, total, nextCursor } = await listClinicVisits(db, tenant, request.query);
      return { items, total, page: request.query.page, pageSize: request.query.pageSize, nextCursor };
    },
  );

  app.post(
    '/api/clinic/visits',
    {
      // A double tap on 'Registrar' (or a retry after a lost answer) records one visit.
      config: { access: 'visits:write', idempotent: true },
      schema: { tags: ['clínica'], summary: 'Registra um atendimento com o desconto do plano', body: createVisitRequestSchema, response: { 201: visitSchema, ...writeErrors } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      return reply.status(201).send(await createVisit(db, tenant, request.body, now()));
    },
  );

  app.post(
    '/api/clinic/visits/:id/cancel',
    {
      config: { access: 'visits:write' },
      schema: {
        tags: ['clínica'],
        summary: 'Cancela um atendimento registrado (continua na lista, marcado, e deixa de contar como desconto recebido)',
        params: idParamsSchema,
        response: { 200: visitSchema, ...writeErrors },
      },
    },
    async (request) => cancelVisit(db, requireTenant(request), request.params.id, now()),
  );
};
