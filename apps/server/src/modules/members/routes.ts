import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberDetailSchema, memberListQuerySchema, memberParamsSchema, memberSchema } from '@carteirinha/shared/contracts/members';
import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { listMembers, memberDetail } from './service.ts';

/** Pacientes (issue 26): the programme's members, the clinic admin's; always the caller's own clinic. */
export const memberRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/clinic/members',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Os pacientes do programa, com a assinatura mais recente; busca por nome, e-mail, CPF ou número do cartão',
        querystring: memberListQuerySchema,
        response: { 200: keysetPageOf(memberSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { items, total, nextCursor } = await listMembers(db, requireTenant(request), request.query);
      return { items, total, page: request.query.page, pageSize: request.query.pageSize, nextCursor };
    },
  );

  app.get(
    '/api/clinic/members/:userId',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Um paciente: assinaturas, cartões, dependentes, cobranças, atendimentos e validações',
        params: memberParamsSchema,
        response: { 200: memberDetailSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => memberDetail(db, requireTenant(request), request.params.userId),
  );
};
