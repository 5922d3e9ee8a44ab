import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceFormSchema, serviceListSchema, serviceSchema } from '@carteirinha/shared/contracts/services';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { recordAudit } from '../../lib/audit.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { insertService, listServices } from './repository.ts';

const errors = errorResponses(400, 401, 403);
const writeErrors = errorResponses(400, 401, 403, 409, 413, 415);

/** The clinic's services (price list): what a visit names. The clinic portal's own screen comes later. */
export const serviceRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/clinic/services',
    {
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: 'Serviços da clínica (tabela de preços)', response: { 200: serviceListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return { items: await withTenantScope(db, tenant.clinicId, (tx) => listServices(tx, tenant)) };
    },
  );

  app.post(
    '/api/clinic/services',
    {
      config: { access: 'clinic:manage', idempotent: true },
      schema: { tags: ['clínica'], summary: 'Cria um serviço da clínica', body: serviceFormSchema, response: { 201: serviceSchema, ...writeErrors } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      // Platform-role transaction bound to the caller's clinic: the audit trail is not a tenant-writable table.
      const service = await db.transaction(async (tx) => {
        const created = await insertService(tx, tenant, request.body);
        await recordAudit(tx, { actorUserId: tenant.userId, action: 'service.created', entity: 'service', entityId: created.id, clinicId: tenant.clinicId, details: { ...request.body } });
        return created;
      });
      return reply.status(201).send(service);
    },
  );
};
