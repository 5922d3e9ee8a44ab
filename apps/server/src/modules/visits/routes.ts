import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamsSchema, keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import {
  createVisitRequestSchema,
  visitExportQuerySchema,
  visitListQuerySchema,
  visitRegistrarsSchema,
  visitSchema,
  visitStatusChangeSchema,
} from '@carteirinha/shared/contracts/visits';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { csvStream } from '../../lib/csv.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { visitExportBatches } from './export.ts';
import { anyVisitMatches, clinicRegistrars, listClinicVisits } from './repository.ts';
import { changeVisitStatus, createVisit } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Atendimentos: the clinic's visits with their filters and export, 'Registrar Atendimento' and the status of each. */
/** `reader`: the replica, where the CSV export reads (ADR 033); everything else here reads and writes `db`. */
export const visitRoutes: FastifyPluginAsyncZod<{ db: Database; reader: Database; now: () => Date }> = async (app, { db, reader, now }) => {
  app.get(
    '/api/clinic/visits',
    {
      config: { access: 'clinic:read' },
      schema: {
        tags: ['clínica'],
        summary: 'Atendimentos da clínica, do mais recente (q: paciente ou serviço; cardId: histórico de um cartão; filtros)',
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

  app.get(
    '/api/clinic/visits.csv',
    {
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: 'Exporta os atendimentos filtrados em CSV (UTF-8 com BOM, separador ;)', querystring: visitExportQuerySchema },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      if (!(await anyVisitMatches(db, tenant, request.query))) throw new AppError('NOT_FOUND', messages.visitsScreen.noData);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${messages.visitsScreen.fileName}"`)
        .send(csvStream(messages.visitsScreen.csvHeader, visitExportBatches(reader, tenant, request.query)));
    },
  );

  app.get(
    '/api/clinic/visits/registrars',
    {
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: "A equipe da clínica, para o filtro 'Registrado por'", response: { 200: visitRegistrarsSchema, ...errors } },
    },
    async (request) => ({ items: await clinicRegistrars(db, requireTenant(request)) }),
  );

  app.post(
    '/api/clinic/visits',
    {
      // A double tap on 'Registrar' (or a retry after a lost answer) records one visit.
      config: { access: 'visits:write', idempotent: true },
      schema: {
        tags: ['clínica'],
        summary: 'Registra um atendimento com o desconto do plano (ou o agenda: scheduledFor)',
        body: createVisitRequestSchema,
        response: { 201: visitSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      return reply.status(201).send(await createVisit(db, tenant, request.body, now()));
    },
  );

  app.patch(
    '/api/clinic/visits/:id/status',
    {
      config: { access: 'visits:write' },
      schema: {
        tags: ['clínica'],
        summary: 'Muda o status: aguardando → em andamento → concluído, ou cancelado com o motivo',
        params: idParamsSchema,
        body: visitStatusChangeSchema,
        response: { 200: visitSchema, ...writeErrors },
      },
    },
    async (request) => changeVisitStatus(db, requireTenant(request), request.params.id, request.body, now()),
  );
};
