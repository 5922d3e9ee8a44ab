import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { memberDetailSchema, memberListQuerySchema, memberParamsSchema, memberSchema } from '@carteirinha/shared/contracts/members';
import {
  MEMBER_IMPORT_MAX_BYTES,
  memberImportConfirmSchema,
  memberImportPreviewSchema,
  memberImportRequestSchema,
  memberImportResultSchema,
} from '@carteirinha/shared/contracts/member-imports';
import { keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { confirmMemberImport, previewMemberImport } from './import-service.ts';
import { listMembers, memberDetail } from './service.ts';

/** The file travels as base64 (4 characters per 3 bytes) with a few small fields beside it. */
const IMPORT_BODY_LIMIT = Math.ceil(MEMBER_IMPORT_MAX_BYTES / 3) * 4 + 16 * 1024;

/** Pacientes (issue 26): the programme's members, the clinic admin's; always the caller's own clinic. */
export const memberRoutes: FastifyPluginAsyncZod<{ db: Database; jobs: Pick<JobRunner, 'enqueue' | 'kick'>; now: () => Date }> = async (app, { db, jobs, now }) => {
  const importDeps = { db, jobs, now };
  const actorOf = (request: Parameters<typeof requireTenant>[0]) => {
    const tenant = requireTenant(request);
    return { clinicId: tenant.clinicId, userId: tenant.userId };
  };

  app.post(
    '/api/clinic/member-imports/preview',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Importar CSV: lê a planilha da empresa e diz, linha a linha, o que impede cada pessoa de entrar; não grava nada',
        body: memberImportRequestSchema,
        response: { 200: memberImportPreviewSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request) => previewMemberImport(importDeps, actorOf(request), request.body),
  );

  app.post(
    '/api/clinic/member-imports',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { access: 'clinic:manage', idempotent: true },
      schema: {
        tags: ['clínica'],
        summary: 'Confirmar importação: grava todas as linhas boas numa transação, ou nada se algo mudou desde a pré-visualização',
        body: memberImportConfirmSchema,
        response: { 200: memberImportResultSchema, ...errorResponses(400, 401, 403, 409, 413, 422) },
      },
    },
    async (request) => confirmMemberImport(importDeps, actorOf(request), request.body),
  );

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
