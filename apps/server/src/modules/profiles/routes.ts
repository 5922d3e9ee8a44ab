import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { patientProfileSchema } from '@carteirinha/shared/contracts/profiles';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireContext } from '../../plugins/access-control.ts';
import { findProfile } from './repository.ts';

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
};
