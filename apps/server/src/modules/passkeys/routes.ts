import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { passkeyIdParamsSchema, passkeyListSchema, passkeySchema, registerPasskeySchema, registrationOptionsSchema } from '@carteirinha/shared/contracts/passkeys';
import { errorResponses } from '@carteirinha/shared/errors';
import { requireContext } from '../../plugins/access-control.ts';
import { siteOf } from '../../plugins/host-site.ts';
import { PLATFORM_BRAND } from '../auth/account-home.ts';
import { relyingPartyOf } from './relying-party.ts';
import { finishPasskeyRegistration, listMyPasskeys, removeMyPasskey, startPasskeyRegistration, type PasskeyDeps } from './service.ts';

/** The site the request came to, as its own relying party (scheme from the proxy rules, host with port). */
function relyingPartyOfRequest(request: FastifyRequest) {
  return relyingPartyOf(new URL(`${request.protocol}://${request.host}`));
}

/** The name a device shows beside a passkey: the clinic's on its own site (white-label), the platform's elsewhere. */
function siteNameOf(request: FastifyRequest): string {
  const site = siteOf(request);
  return site.kind === 'clinic' ? site.clinic.name : PLATFORM_BRAND.name;
}

/**
 * Segurança: every signed-in user lists, adds and removes their own passkeys (ADR 029). A user only ever reaches their
 * own: every query is by the caller's id, and another's passkey is not found. Sign-in and the second factor with a
 * passkey are better-auth endpoints (`auth-plugin.ts`), since they make sessions.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<PasskeyDeps> = async (app, deps) => {
  app.get(
    '/api/passkeys',
    {
      config: { access: 'authenticated' },
      schema: { tags: ['segurança'], summary: 'As chaves de acesso (passkeys) de quem está logado', response: { 200: passkeyListSchema, ...errorResponses(401, 403) } },
    },
    async (request) => ({ passkeys: await listMyPasskeys(deps, requireContext(request)) }),
  );

  // A GET, like better-auth's own passkey plugin: it changes nothing the user owns (the challenge it keeps expires
  // unused in minutes) and takes no input, so it needs no body.
  app.get(
    '/api/passkeys/registration-options',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['segurança'],
        summary: 'Começa o cadastro de uma chave de acesso neste site (opções WebAuthn)',
        response: { 200: registrationOptionsSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => startPasskeyRegistration(deps, requireContext(request), relyingPartyOfRequest(request), siteNameOf(request)),
  );

  app.post(
    '/api/passkeys',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['segurança'],
        summary: 'Cadastra a chave de acesso criada pelo aparelho',
        body: registerPasskeySchema,
        response: { 201: passkeySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const passkey = await finishPasskeyRegistration(deps, requireContext(request), relyingPartyOfRequest(request), request.body);
      return reply.status(201).send(passkey);
    },
  );

  app.delete(
    '/api/passkeys/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['segurança'],
        summary: 'Remove uma chave de acesso e encerra as sessões abertas com ela',
        params: passkeyIdParamsSchema,
        response: { 204: z.null(), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeMyPasskey(deps, requireContext(request), request.params.id);
      return reply.status(204).send(null);
    },
  );
};
