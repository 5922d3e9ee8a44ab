import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { pushDeviceSchema, pushStateSchema, pushSubscribeSchema } from '@carteirinha/shared/contracts/push';
import { errorResponses } from '@carteirinha/shared/errors';
import { requireTenant } from '../../plugins/access-control.ts';
import { pushStateOf, subscribeToPush, unsubscribeFromPush, type PushDeps } from './service.ts';

/**
 * Meu Perfil › Notificações (issue 29): the patient's own browsers, by the caller's id and clinic alone (another's
 * subscription is not found). `patient:self`: turning notices off must work while the clinic is suspended too.
 */
export const pushRoutes: FastifyPluginAsyncZod<PushDeps> = async (app, deps) => {
  app.get(
    '/api/patient/push',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'A chave pública VAPID (applicationServerKey) e os aparelhos que recebem as notificações do paciente',
        response: { 200: pushStateSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => pushStateOf(deps, requireTenant(request)),
  );

  app.post(
    '/api/patient/push/subscriptions',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Ativa as notificações neste aparelho (a inscrição Web Push do navegador)',
        body: pushSubscribeSchema,
        response: { 201: pushDeviceSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const device = await subscribeToPush(deps, requireTenant(request), request.body, request.headers['user-agent']);
      return reply.status(201).send(device);
    },
  );

  app.delete(
    '/api/patient/push/subscriptions/:id',
    {
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'Desativa as notificações em um aparelho; os avisos voltam a chegar por e-mail quando nenhum aparelho fica',
        params: idParamsSchema,
        response: { 204: z.null(), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await unsubscribeFromPush(deps, requireTenant(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
