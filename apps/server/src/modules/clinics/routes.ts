import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicFormSchema } from '@carteirinha/shared/contracts/admin-clinics';
import { adminClinicListQuerySchema, adminClinicSchema, clinicDetailSchema, clinicSchema, clinicSummarySchema } from '@carteirinha/shared/contracts/clinics';
import { idParamsSchema, keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireContext, requireTenant } from '../../plugins/access-control.ts';
import type { JobRunner } from '../jobs/runner.ts';
import type { HostResolver } from '../tenancy/host-site.ts';
import { clinicSummary, findClinic } from './repository.ts';
import { approveClinic, clinicDetail, createClinic, deleteClinic, listAdminClinics, updateClinic } from './service.ts';

type ClinicRoutesOptions = { db: Database; jobs: Pick<JobRunner, 'enqueue'>; resolver: HostResolver; mainDomain: string; publicUrl: string };

const errors = errorResponses(400, 401, 403, 404, 409);

export const clinicRoutes: FastifyPluginAsyncZod<ClinicRoutesOptions> = async (app, { db, jobs, resolver, mainDomain, publicUrl }) => {
  const admin = { access: 'platform:manage' } as const;
  const site = { mainDomain, publicUrl };

  app.get(
    '/api/admin/clinics',
    { config: admin, schema: { tags: ['admin'], summary: 'Lista as clínicas', querystring: adminClinicListQuerySchema, response: { 200: keysetPageOf(adminClinicSchema), ...errors } } },
    async (request) => listAdminClinics(db, request.query, site),
  );

  app.get(
    '/api/admin/clinics/summary',
    { config: admin, schema: { tags: ['admin'], summary: 'Contagem de clínicas por situação', response: { 200: clinicSummarySchema, ...errors } } },
    async () => clinicSummary(db),
  );

  app.get(
    '/api/admin/clinics/:id',
    { config: admin, schema: { tags: ['admin'], summary: 'Detalhe de uma clínica', params: idParamsSchema, response: { 200: clinicDetailSchema, ...errors } } },
    async (request) => clinicDetail(db, request.params.id, site),
  );

  app.post(
    '/api/admin/clinics',
    { config: admin, schema: { tags: ['admin'], summary: 'Cria uma clínica', body: clinicFormSchema, response: { 201: adminClinicSchema, ...errors } } },
    async (request, reply) => {
      const clinic = await createClinic(db, { userId: requireContext(request).userId }, request.body, site);
      await resolver.invalidate();
      return reply.status(201).send(clinic);
    },
  );

  app.put(
    '/api/admin/clinics/:id',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Altera uma clínica', params: idParamsSchema, body: clinicFormSchema, response: { 200: adminClinicSchema, ...errors } },
    },
    async (request) => {
      const clinic = await updateClinic(db, { userId: requireContext(request).userId }, request.params.id, request.body, site, jobs);
      await resolver.invalidate();
      return clinic;
    },
  );

  app.delete(
    '/api/admin/clinics/:id',
    { config: admin, schema: { tags: ['admin'], summary: 'Exclui uma clínica sem pacientes', params: idParamsSchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await deleteClinic(db, { userId: requireContext(request).userId }, request.params.id);
      await resolver.invalidate();
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/clinics/:id/approve',
    { config: admin, schema: { tags: ['admin'], summary: 'Aprova o cadastro de uma clínica em trial', params: idParamsSchema, response: { 200: adminClinicSchema, ...errors } } },
    async (request) => {
      const clinic = await approveClinic(db, jobs, { userId: requireContext(request).userId }, request.params.id, site, new Date());
      await resolver.invalidate();
      return clinic;
    },
  );

  app.get(
    '/api/clinic',
    { config: { access: 'clinic:read' }, schema: { tags: ['clínica'], summary: 'A clínica de quem está logado', response: { 200: clinicSchema, ...errors } } },
    async (request) => {
      const tenant = requireTenant(request);
      const clinic = await withTenantScope(db, tenant.clinicId, (tx) => findClinic(tx, tenant.clinicId));
      if (!clinic) throw new AppError('NOT_FOUND');
      return clinic;
    },
  );
};
