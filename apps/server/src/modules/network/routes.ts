import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicNetworkPageSchema,
  networkPlaceFormSchema,
  networkPlaceSchema,
  networkRemovalSchema,
  patientNetworkPageSchema,
  patientNetworkQuerySchema,
} from '@carteirinha/shared/contracts/network';
import { idParamsSchema, listQuerySchema } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import { createPlace, listClinicNetwork, removePlace, searchPatientNetwork, updatePlace } from './service.ts';

const errors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415);

/** Rede Credenciada: the clinic_admin keeps the programme's accredited places; its patients search them (issues 26, 27). */
type NetworkOptions = { db: Database; now: () => Date; mainDomain: string; publicUrl: string };

export const networkRoutes: FastifyPluginAsyncZod<NetworkOptions> = async (app, { db, now, ...site }) => {
  app.get(
    '/api/clinic/network',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Locais da Rede Credenciada da clínica, com o limite de parceiros do plano na plataforma',
        querystring: listQuerySchema,
        response: { 200: clinicNetworkPageSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return withTenantScope(db, tenant.clinicId, (tx) => listClinicNetwork(tx, tenant, request.query));
    },
  );

  app.post(
    '/api/clinic/network',
    {
      config: { access: 'clinic:manage', idempotent: true },
      schema: { tags: ['clínica'], summary: 'Cria um local da Rede Credenciada', body: networkPlaceFormSchema, response: { 201: networkPlaceSchema, ...writeErrors } },
    },
    async (request, reply) => reply.status(201).send(await createPlace(db, requireTenant(request), request.body, now())),
  );

  app.put(
    '/api/clinic/network/:id',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Altera um local da Rede Credenciada',
        params: idParamsSchema,
        body: networkPlaceFormSchema,
        response: { 200: networkPlaceSchema, ...writeErrors },
      },
    },
    async (request) => updatePlace(db, requireTenant(request), request.params.id, request.body, now()),
  );

  app.delete(
    '/api/clinic/network/:id',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Exclui um local da Rede Credenciada', params: idParamsSchema, response: { 200: networkRemovalSchema, ...writeErrors } },
    },
    async (request) => removePlace(db, requireTenant(request), request.params.id),
  );

  app.get(
    '/api/patient/network',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Rede Credenciada do programa: busca por nome, categoria ou endereço; com lat e lng, os mais próximos primeiro',
        querystring: patientNetworkQuerySchema,
        response: { 200: patientNetworkPageSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return withTenantScope(db, tenant.clinicId, (tx) => searchPatientNetwork(tx, tenant, request.query, site));
    },
  );
};
