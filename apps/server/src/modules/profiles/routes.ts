import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { patientProfileSchema, patientProfileUpdateSchema, reassignCpfRequestSchema, reassignCpfResponseSchema } from '@carteirinha/shared/contracts/profiles';
import { errorResponseSchema, errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import type { Storage } from '../../lib/storage.ts';
import { uploadedImageBytes } from '../../lib/uploads.ts';
import { requireContext, requireTenant } from '../../plugins/access-control.ts';
import { myProfile, replaceMyPhoto, updateMyProfile } from './my-profile.ts';
import { reassignCpf } from './service.ts';

type ProfileRouteOptions = { db: Database; storage: Storage; now: () => Date };

export const profileRoutes: FastifyPluginAsyncZod<ProfileRouteOptions> = async (app, { db, storage, now }) => {
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
    async (request) => myProfile(db, requireContext(request).userId),
  );

  app.patch(
    '/api/patient/profile',
    {
      // The patient's own data, like the read: correcting it is a right while the clinic is suspended too (LGPD).
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Altera os dados pessoais do paciente (o CPF só enquanto não houver um)',
        body: patientProfileUpdateSchema,
        response: { 200: patientProfileSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const ctx = requireContext(request);
      const profile = await updateMyProfile(db, { userId: ctx.userId, clinicId: ctx.clinicId }, request.body, now());
      request.log.info({ userId: ctx.userId }, 'patient.profile_updated');
      return profile;
    },
  );

  app.post(
    '/api/patient/profile/photo',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Envia a foto do paciente (imagem até 2 MB, campo "file"); a anterior é apagada',
        consumes: ['multipart/form-data'],
        response: { 200: patientProfileSchema, ...errorResponses(400, 401, 403, 413) },
      },
    },
    async (request) => {
      const ctx = requireContext(request);
      const bytes = await uploadedImageBytes(request);
      return replaceMyPhoto(db, storage, { userId: ctx.userId, clinicId: ctx.clinicId }, bytes, now());
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
