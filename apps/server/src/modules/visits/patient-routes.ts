import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { patientHistoryPageSchema, patientHistoryQuerySchema, patientPeriodQuerySchema, patientSavingsSchema } from '@carteirinha/shared/contracts/patient-visits';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { patientHistoryPage, patientSavings } from './patient-history.ts';

const errors = errorResponses(400, 401, 403);

/** Histórico (issue 27): the patient's own visits and savings. Their own records: kept while the clinic is closed (ADR 010). */
export const patientVisitRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/patient/history',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Os atendimentos concluídos do paciente e dos seus dependentes, do mais recente (from/to: dias de São Paulo)',
        querystring: patientHistoryQuerySchema,
        response: { 200: patientHistoryPageSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const page = await withTenantScope(db, tenant.clinicId, (tx) => patientHistoryPage(tx, tenant, request.query));
      return { ...page, page: request.query.page, pageSize: request.query.pageSize };
    },
  );

  app.get(
    '/api/patient/history/summary',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Quanto o paciente economizou no período, quanto pagou pelo plano, e mês a mês',
        querystring: patientPeriodQuerySchema,
        response: { 200: patientSavingsSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return withTenantScope(db, tenant.clinicId, (tx) => patientSavings(tx, tenant, request.query));
    },
  );
};
