import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  onboardingClinicResponseSchema,
  onboardingClinicSchema,
  publicClinicListSchema,
  publicClinicSearchQuerySchema,
  tenantResponseSchema,
  type TenantResponse,
} from '@carteirinha/shared/contracts/tenant';
import { errorResponseSchema, errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireContext } from '../../plugins/access-control.ts';
import { siteOf } from '../../plugins/host-site.ts';
import { clinicSiteUrl, type HostResolver } from './host-site.ts';
import { createTrialClinic, searchOpenClinics, tenantOf, type TenantAnswerOptions } from './service.ts';

type TenancyOptions = TenantAnswerOptions & {
  db: Database;
  resolver: HostResolver;
};

const errors = errorResponses(400, 401, 403, 409);

export const tenancyRoutes: FastifyPluginAsyncZod<TenancyOptions> = async (app, options) => {
  const { db } = options;
  const urlOf = (clinic: { slug: string; domain: string | null }) => clinicSiteUrl(clinic, options);

  app.get(
    '/api/tenant',
    {
      config: { access: 'public' },
      schema: { tags: ['sistema'], summary: 'O site deste endereço: a plataforma ou uma clínica', response: { 200: tenantResponseSchema } },
    },
    async (request): Promise<TenantResponse> => tenantOf(db, siteOf(request), options),
  );

  app.post(
    '/api/onboarding/clinic',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['onboarding'],
        summary: 'Cria a clínica de quem acabou de se cadastrar, em período de teste',
        body: onboardingClinicSchema,
        response: { 201: onboardingClinicResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const ctx = requireContext(request);
      if (siteOf(request).kind !== 'platform') throw new AppError('FORBIDDEN', messages.tenancy.onboardingOnlyOnPlatform);
      if (ctx.role) throw new AppError('CONFLICT', messages.tenancy.alreadyOnboarded);
      // The clinic's admin is whoever holds the mailbox, not whoever typed the address first (ADR 006).
      if (!ctx.emailVerified) throw new AppError('FORBIDDEN', messages.tenancy.verifyEmailFirst);
      const created = await createTrialClinic(db, app.jobs, ctx.userId, request.body);
      await options.resolver.invalidate();
      request.log.info({ userId: ctx.userId, clinicId: created.clinicId }, 'clinic.created_by_onboarding');
      return reply.status(201).send({
        clinicId: created.clinicId,
        trialEndsAt: created.trialEndsAt.toISOString(),
        url: urlOf({ slug: created.slug, domain: null }),
      });
    },
  );

  app.get(
    '/api/public/clinics',
    {
      config: { access: 'public' },
      schema: {
        tags: ['onboarding'],
        summary: 'Busca clínicas abertas por nome ou cidade ("Sou paciente")',
        querystring: publicClinicSearchQuerySchema,
        response: { 200: publicClinicListSchema, 400: errorResponseSchema },
      },
    },
    async (request) => {
      const rows = await searchOpenClinics(db, request.query.q);
      return {
        items: rows.map((row) => ({ name: row.displayName ?? row.name, city: row.city, state: row.state, url: urlOf(row) })),
      };
    },
  );
};
