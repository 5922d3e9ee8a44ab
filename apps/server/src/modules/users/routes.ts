import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema, keysetListQuerySchema, keysetPageOf } from '@carteirinha/shared/contracts/pagination';
import {
  adminUserSchema,
  assignRoleResponseSchema,
  assignRoleSchema,
  invitationPreviewQuerySchema,
  invitationPreviewSchema,
  teamInvitationSchema,
  teamListSchema,
  teamMemberSchema,
  teamRoleChangeSchema,
  updateRoleSchema,
  userCountsSchema,
  userProfileSchema,
} from '@carteirinha/shared/contracts/users';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { requireContext, requireTenant } from '../../plugins/access-control.ts';
import { invitationPreview, listUsers, userCounts, userProfile } from './repository.ts';
import { assignRole, changeRole, deactivateUser, resendInvitation } from './service.ts';
import { changeTeamRole, inviteTeamMember, listTeam, removeTeamMember, resendTeamInvitation } from './team.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 503);
const admin = { access: 'platform:manage' } as const;
const userIdParams = z.object({ userId: z.uuid(messages.admin.invalidUserId) });

export type UserRoutesOptions = {
  db: Database;
  /** Invitations are e-mailed; their links point at the clinic's site, or the platform's. */
  mailer: Mailer;
  mainDomain: string;
  publicUrl: string;
};

/** /admin/usuarios: accounts, their roles, invitations and deactivation. */
export const userRoutes: FastifyPluginAsyncZod<UserRoutesOptions> = async (app, { db, mailer, mainDomain, publicUrl }) => {
  const deps = { db, mailer, mainDomain, publicUrl, log: app.log };

  app.get(
    '/api/admin/users',
    { config: admin, schema: { tags: ['admin'], summary: 'Lista os usuários', querystring: keysetListQuerySchema, response: { 200: keysetPageOf(adminUserSchema), ...errors } } },
    async (request) => listUsers(db, request.query),
  );

  // The "Aceitar convite" page (issue 13, item 11): the link's token is the only key, as for setting the password.
  app.get(
    '/api/public/invitation',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Quem um link de convite convida (email, função e clínica)',
        querystring: invitationPreviewQuerySchema,
        response: { 200: invitationPreviewSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const preview = await invitationPreview(db, request.query.token);
      if (!preview) throw new AppError('NOT_FOUND', messages.auth.resetInvalidToken);
      return preview;
    },
  );

  app.get(
    '/api/admin/users/counts',
    { config: admin, schema: { tags: ['admin'], summary: 'Usuários por função', response: { 200: userCountsSchema, ...errors } } },
    async () => userCounts(db),
  );

  app.get(
    '/api/admin/users/:id',
    { config: admin, schema: { tags: ['admin'], summary: 'Perfil de um usuário', params: idParamsSchema, response: { 200: userProfileSchema, ...errors } } },
    async (request) => {
      const profile = await userProfile(db, request.params.id);
      if (!profile) throw new AppError('NOT_FOUND', messages.admin.userNotFound);
      return profile;
    },
  );

  app.post(
    '/api/admin/users/:userId/invitation',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Reenvia o convite de quem ainda não definiu a senha', params: userIdParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await resendInvitation(deps, { userId: requireContext(request).userId }, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/admin/user-roles',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Atribui uma função (ou convida um novo email)', body: assignRoleSchema, response: { 201: assignRoleResponseSchema, ...errors } },
    },
    async (request, reply) => reply.status(201).send(await assignRole(deps, { userId: requireContext(request).userId }, request.body)),
  );

  app.put(
    '/api/admin/user-roles/:userId',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Altera a função e a clínica', params: userIdParams, body: updateRoleSchema, response: { 200: adminUserSchema, ...errors } },
    },
    async (request) => changeRole(deps, { userId: requireContext(request).userId }, request.params.userId, request.body),
  );

  app.delete(
    '/api/admin/user-roles/:userId',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Desativa: remove a função, bloqueia a conta e encerra as sessões', params: userIdParams, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      await deactivateUser(db, { userId: requireContext(request).userId }, request.params.userId);
      return reply.status(204).send(null);
    },
  );

  // Equipe (issue 25): the clinic's admin manages its own team, always within the caller's clinic.
  const team = { access: 'clinic:manage' } as const;
  const teamErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 503);

  app.get(
    '/api/clinic/team',
    { config: team, schema: { tags: ['clínica'], summary: 'A equipe da clínica e os convites pendentes', response: { 200: teamListSchema, ...errors } } },
    async (request) => ({ items: await listTeam(db, requireTenant(request)) }),
  );

  app.post(
    '/api/clinic/team',
    {
      config: { ...team, idempotent: true },
      schema: {
        tags: ['clínica'],
        summary: 'Convida um e-mail para a equipe como Admin de Clínica ou Atendente (o link leva ao site da clínica)',
        body: teamInvitationSchema,
        response: { 201: teamMemberSchema, ...teamErrors },
      },
    },
    async (request, reply) => reply.status(201).send(await inviteTeamMember(deps, requireTenant(request), request.body)),
  );

  app.put(
    '/api/clinic/team/:userId/role',
    {
      config: team,
      schema: { tags: ['clínica'], summary: 'Altera a função de alguém da equipe (as sessões da pessoa terminam)', params: userIdParams, body: teamRoleChangeSchema, response: { 200: teamMemberSchema, ...teamErrors } },
    },
    async (request) => changeTeamRole(db, requireTenant(request), request.params.userId, request.body.role),
  );

  app.delete(
    '/api/clinic/team/:userId',
    {
      config: team,
      schema: { tags: ['clínica'], summary: 'Remove o acesso de alguém da equipe na hora, ou cancela o convite pendente', params: userIdParams, response: { 204: z.null(), ...teamErrors } },
    },
    async (request, reply) => {
      await removeTeamMember(db, requireTenant(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/api/clinic/team/:userId/invitation',
    {
      config: team,
      schema: { tags: ['clínica'], summary: 'Reenvia o convite de quem ainda não criou a senha', params: userIdParams, response: { 204: z.null(), ...teamErrors } },
    },
    async (request, reply) => {
      await resendTeamInvitation(deps, requireTenant(request), request.params.userId);
      return reply.status(204).send(null);
    },
  );
};
