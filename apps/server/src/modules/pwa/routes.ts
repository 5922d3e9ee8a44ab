import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appIconParamsSchema, webAppManifestSchema, type WebAppManifest } from '@carteirinha/shared/contracts/pwa';
import { messages } from '@carteirinha/shared/messages';
import { siteOf } from '../../plugins/host-site.ts';
import type { HostSite } from '../tenancy/host-site.ts';
import { iconColorOf, renderAppIcon } from './app-icon.ts';

type PwaOptions = {
  /** The platform's name (Configurações), for the platform's own app. */
  platformName: () => Promise<string>;
};

/** Kept a few minutes: a new name or colour reaches installed apps at their next manifest check. */
const CACHE = 'public, max-age=300';
const ICON_PATH = '/api/app/icons';

/** What the app is called and coloured on this host: the clinic's own, or the platform's. */
async function appIdentityOf(site: HostSite, platformName: () => Promise<string>): Promise<{ name: string; primaryColor: string | null; clinic: boolean }> {
  if (site.kind === 'clinic') return { name: site.clinic.name, primaryColor: site.clinic.primaryColor, clinic: true };
  return { name: await platformName(), primaryColor: null, clinic: false };
}

/** A home-screen label: the name whole when short, else its first words within 12 characters. */
function shortNameOf(name: string): string {
  if (name.length <= 12) return name;
  const words = name.split(/\s+/);
  let short = words[0] ?? name;
  for (const word of words.slice(1)) {
    if (`${short} ${word}`.length > 12) break;
    short = `${short} ${word}`;
  }
  return short.slice(0, 12);
}

/**
 * The installable app of each host (issue 29): the web app manifest and its icons, drawn for the clinic whose site
 * this is (its name, colour, initials), the platform's on the platform's host. The SPA links the manifest; a clinic's
 * app opens on the patient portal.
 */
export const pwaRoutes: FastifyPluginAsyncZod<PwaOptions> = async (app, { platformName }) => {
  app.get(
    '/api/app/manifest.webmanifest',
    {
      config: { access: 'public' },
      schema: { tags: ['sistema'], summary: 'O manifesto do app instalável deste endereço (clínica ou plataforma)', response: { 200: webAppManifestSchema } },
    },
    async (request, reply): Promise<WebAppManifest> => {
      const identity = await appIdentityOf(siteOf(request), platformName);
      const color = iconColorOf(identity.primaryColor);
      reply.header('cache-control', CACHE).type('application/manifest+json; charset=utf-8');
      return {
        id: identity.clinic ? '/paciente' : '/',
        name: identity.name,
        short_name: shortNameOf(identity.name),
        description: identity.clinic ? messages.pwa.description : messages.pwa.platformDescription,
        lang: 'pt-BR',
        start_url: identity.clinic ? '/paciente' : '/auth',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: color,
        icons: [
          { src: `${ICON_PATH}/192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: `${ICON_PATH}/512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: `${ICON_PATH}/512.png`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      };
    },
  );

  app.get(
    `${ICON_PATH}/:size.png`,
    {
      config: { access: 'public' },
      schema: { tags: ['sistema'], summary: 'O ícone do app deste endereço (PNG, 192 ou 512 px)', params: appIconParamsSchema },
    },
    async (request, reply) => {
      const identity = await appIdentityOf(siteOf(request), platformName);
      const png = await renderAppIcon(identity, Number(request.params.size));
      return reply.header('cache-control', CACHE).type('image/png').send(png);
    },
  );
};
