import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountDeletionRequestSchema, accountDeletionResponseSchema, cardAccessPageSchema, cardAccessQuerySchema, myDataExportSchema } from '@carteirinha/shared/contracts/my-data';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import type { Storage } from '../../lib/storage.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';
import { cardAccessLog } from './access-log.ts';
import { deleteMyAccount } from './deletion.ts';
import { exportMyData } from './export.ts';
import { renderMyDataHtml } from './export-html.ts';

type MyDataRouteOptions = { db: Database; storage: Storage; jobs: FollowUpQueue; now: () => Date };

const errors = errorResponses(400, 401, 403);
/** The copy to print is drawn by us from escaped values; it still may run nothing and load nothing. */
const PRINTABLE_CSP = "default-src 'none'; style-src 'unsafe-inline'";
/** better-auth's session cookie under both of its names (plain and, on HTTPS, `__Secure-`), cleared on deletion. */
const CLEARED_SESSION_COOKIES = ['carteirinha.session_token', '__Secure-carteirinha.session_token'].map((name) => `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);

/**
 * Meus Dados (issue 27; ADR 027): the patient's LGPD rights over their own data. All of them hold while the clinic is
 * suspended (ADR 010): access, the log of who looked, and deletion do not depend on the clinic paying the platform.
 */
export const myDataRoutes: FastifyPluginAsyncZod<MyDataRouteOptions> = async (app, { db, storage, jobs, now }) => {
  app.get(
    '/api/patient/my-data/export.json',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Tudo o que a plataforma guarda sobre o paciente na sua clínica (JSON, para baixar)', response: { 200: myDataExportSchema, ...errors } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const data = await exportMyData(db, tenant, now());
      request.log.info({ userId: tenant.userId }, 'patient.data_exported');
      return reply.header('content-disposition', 'attachment; filename="meus-dados.json"').send(data);
    },
  );

  app.get(
    '/api/patient/my-data/export.html',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Os mesmos dados numa página para ler e imprimir, com o nome da clínica', response: { 200: z.string(), ...errors } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const html = renderMyDataHtml(await exportMyData(db, tenant, now()));
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', 'inline; filename="meus-dados.html"')
        .header('content-security-policy', PRINTABLE_CSP)
        .send(html);
    },
  );

  app.get(
    '/api/patient/my-data/card-access',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Quem da clínica consultou os cartões do paciente e dos dependentes, e quando (mais recente primeiro)',
        querystring: cardAccessQuerySchema,
        response: { 200: cardAccessPageSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const page = await cardAccessLog(db, tenant, request.query);
      return { ...page, page: request.query.page, pageSize: request.query.pageSize };
    },
  );

  app.post(
    '/api/patient/my-data/deletion',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Exclui a conta do paciente (anonimiza; guarda cobranças e validações como a lei exige) e encerra as sessões',
        body: accountDeletionRequestSchema,
        response: { 200: accountDeletionResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const outcome = await deleteMyAccount({ db, storage, jobs, now: now() }, tenant);
      request.log.info({ userId: tenant.userId }, 'patient.account_deleted');
      return reply.header('set-cookie', CLEARED_SESSION_COOKIES).send(outcome);
    },
  );
};
