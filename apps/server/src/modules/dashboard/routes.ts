import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminDashboardSchema, clinicChartsSchema, clinicDashboardSchema, firstStepsSchema, mrrHistorySchema } from '@carteirinha/shared/contracts/dashboard';
import { patientHomeSchema } from '@carteirinha/shared/contracts/patient-visits';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { PLATFORM_FIGURES, type FiguresCache } from '../../lib/figures-cache.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { clinicSiteFactsOf } from '../clinics/clinic-settings.ts';
import type { SiteOptions } from '../clinics/service.ts';
import { mrrHistory } from '../plans/service.ts';
import { clinicCharts, clinicDashboard, firstSteps } from './clinic-dashboard.ts';
import { adminDashboard } from './repository.ts';
import { patientHome } from './patient-home.ts';

const errors = errorResponses(401, 403);

/**
 * The figures read `reader` — the replica when there is one (ADR 033): a moment behind is fine for a dashboard — and
 * are kept per process until a row they count changes (`figures`, ADR 036), by the São Paulo day they are of. The first
 * steps and the patient's Início read `db`: they must show what the person has just done.
 */
export const dashboardRoutes: FastifyPluginAsyncZod<{ db: Database; reader: Database; figures: FiguresCache; now: () => Date } & SiteOptions> = async (
  app,
  { db, reader, figures, now, ...site },
) => {
  const today = () => saoPauloDay(now());
  app.get(
    '/api/admin/dashboard',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'Indicadores, clínicas recentes e alertas', response: { 200: adminDashboardSchema, ...errors } },
    },
    // The app's clock: the alerts' windows (failed events of the last 14 days, trials ending) read it, not the machine's.
    async () => figures.read(PLATFORM_FIGURES, `dashboard:${today()}`, () => adminDashboard(reader, now())),
  );

  app.get(
    '/api/admin/dashboard/mrr-history',
    {
      config: { access: 'platform:manage' },
      schema: { tags: ['admin'], summary: 'O MRR da plataforma ao fim de cada um dos últimos 12 meses', response: { 200: mrrHistorySchema, ...errors } },
    },
    async () => figures.read(PLATFORM_FIGURES, `mrr-history:${today()}`, () => mrrHistory(reader, now())),
  );

  // The clinic's Dashboard (issue 25): figures of its money and people are its admin's; the desk gets today's visits.
  app.get(
    '/api/clinic/dashboard',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Os quatro indicadores da clínica e os atendimentos recentes', response: { 200: clinicDashboardSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return figures.read(tenant.clinicId, `dashboard:${today()}`, () => clinicDashboard(reader, tenant, now()));
    },
  );

  app.get(
    '/api/clinic/dashboard/charts',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Atendimentos e validações por dia e receita por semana, nas últimas 12 semanas', response: { 200: clinicChartsSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return figures.read(tenant.clinicId, `charts:${today()}`, () => clinicCharts(reader, tenant, now()));
    },
  );

  app.get(
    '/api/clinic/first-steps',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Os primeiros passos da clínica, marcados pelo que ela já fez, e o endereço do site', response: { 200: firstStepsSchema, ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const facts = await clinicSiteFactsOf(db, requireTenant(request).clinicId, site);
      return firstSteps(db, facts, facts.siteUrl);
    },
  );

  // Início (issue 27): the patient's own; kept while the clinic is closed (ADR 010), like the subscription it shows.
  app.get(
    '/api/patient/home',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Início do paciente: a próxima consulta agendada, os dependentes e os três últimos atendimentos',
        response: { 200: patientHomeSchema, ...errors },
      },
    },
    async (request) => patientHome(db, requireTenant(request), now()),
  );
};
