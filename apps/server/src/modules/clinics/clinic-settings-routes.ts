import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicSettingsFormSchema, clinicSettingsSchema } from '@carteirinha/shared/contracts/clinics';
import { errorResponses } from '@carteirinha/shared/errors';
import type { Database } from '../../db/client.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { HostResolver } from '../tenancy/host-site.ts';
import { clinicSettingsOf, saveClinicSettings } from './clinic-settings.ts';
import type { SiteOptions } from './service.ts';

type ClinicSettingsRouteOptions = SiteOptions & { db: Database; resolver: Pick<HostResolver, 'invalidate'>; now: () => Date };

/** Configurações (issue 25): the clinic admin's own clinic, never another's (the id comes from the session). */
export const clinicSettingsRoutes: FastifyPluginAsyncZod<ClinicSettingsRouteOptions> = async (app, { db, resolver, now, ...site }) => {
  app.get(
    '/api/clinic/settings',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Dados, horário, notificações e carência da clínica', response: { 200: clinicSettingsSchema, ...errorResponses(401, 403, 404) } },
    },
    async (request) => clinicSettingsOf(db, requireTenant(request).clinicId, site),
  );

  app.put(
    '/api/clinic/settings',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Salva os dados, o horário, as notificações e a carência da clínica (o CNPJ não muda aqui)',
        body: clinicSettingsFormSchema,
        response: { 200: clinicSettingsSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const saved = await saveClinicSettings(db, requireTenant(request), request.body, site, now());
      // The clinic's name is on its site and in its e-mails: the host cache answers the new one from now on.
      await resolver.invalidate();
      return saved;
    },
  );
};
