import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { patientProfileSchema, reassignCpfRequestSchema, reassignCpfResponseSchema } from '@carteirinha/shared/contracts/profiles';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireContext, requireTenant } from '../../plugins/access-control.ts';
import { findProfile, reassignCpf } from './service.ts';

export const profileRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/patient/profile',
    {
      // The patient's own data: readable while the clinic is suspended too (ADR 010; LGPD's right of access).
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Os dados pessoais do paciente (a assinatura parte deles)',
        response: { 200: patientProfileSchema, 401: errorResponseSchema, 403: errorResponseSchema },
      },
    },
    async (request) => {
      const ctx = requireContext(request);
      const profile = await findProfile(db, ctx.userId);
      return { fullName: ctx.fullName, email: ctx.email, cpf: profile?.cpf ?? null, phone: profile?.phone ?? null };
    },
  );

  app.post(
    '/api/clinic/cpf-claims',
    {
      // The clinic admin's, after checking the person's document; audited with both people (issue 22).
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Dá um CPF ao seu verdadeiro dono (o paciente com este e-mail), tirando-o de quem o tinha',
        body: reassignCpfRequestSchema,
        response: {
          200: reassignCpfResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return reassignCpf(db, tenant, request.body);
    },
  );
};
