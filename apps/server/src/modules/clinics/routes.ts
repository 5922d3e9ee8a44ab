import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicSchema } from '@carteirinha/shared/contracts/clinics';
import { idParamsSchema, listQuerySchema, pageOf } from '@carteirinha/shared/contracts/pagination';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { findClinic, listClinics } from './repository.ts';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

export const clinicRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/admin/clinics',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Lista as clínicas', querystring: listQuerySchema, response: { 200: pageOf(clinicSchema), ...errors } },
    },
    async (request) => listClinics(db, request.query),
  );

  app.get(
    '/api/admin/clinics/:id',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Detalhe de uma clínica', params: idParamsSchema, response: { 200: clinicSchema, ...errors } },
    },
    async (request) => {
      const clinic = await findClinic(db, request.params.id);
      if (!clinic) throw new AppError('NOT_FOUND');
      return clinic;
    },
  );

  app.get(
    '/api/clinic',
    {
      config: { access: 'clinic:read' },
      schema: { tags: ['clínica'], summary: 'A clínica de quem está logado', response: { 200: clinicSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const clinic = await withTenantScope(db, tenant.clinicId, (tx) => findClinic(tx, tenant.clinicId));
      if (!clinic) throw new AppError('NOT_FOUND');
      return clinic;
    },
  );
};
