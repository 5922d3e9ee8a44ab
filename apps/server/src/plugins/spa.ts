import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LandingPageInput } from '@carteirinha/shared/contracts/landing';
import { EMAIL_CONFIRMED_PARAM } from '@carteirinha/shared/constants';
import { defaultErrorMessage } from '@carteirinha/shared/errors';
import { compress, preferredEncoding } from '../lib/content-encoding.ts';
import { loadRoutePreloads, preloadsFor, withPreloads } from './route-preloads.ts';

/** Vite fingerprints everything under assets/: a file there never changes, so browsers and CDNs keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Pages (and the few files without a hash) are kept but asked about again before each use. */
const REVALIDATE = 'no-cache';

/** The build's landing template and its server renderer (apps/web: build/landing-template.ts, src/app/render-home-page.tsx). */
const LANDING_TEMPLATE = 'landing.html';
const LANDING_RENDERER = path.join('.server', 'render-home-page.js');

type RenderHomePage = (template: string, input: LandingPageInput) => string;
type LandingRendererModule = { renderHomePage: RenderHomePage };

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function isLandingRendererModule(value: unknown): value is LandingRendererModule {
  return typeof value === 'object' && value !== null && 'renderHomePage' in value && typeof value.renderHomePage === 'function';
}

/** The landing page's renderer of this build, or null when the build has none (then the SPA draws "/"). */
async function loadLandingRenderer(webDistDir: string): Promise<((input: LandingPageInput) => string) | null> {
  const templateFile = path.join(webDistDir, LANDING_TEMPLATE);
  const rendererFile = path.join(webDistDir, LANDING_RENDERER);
  if (!fs.existsSync(templateFile) || !fs.existsSync(rendererFile)) return null;
  const template = fs.readFileSync(templateFile, 'utf8');
  const loaded: unknown = await import(pathToFileURL(rendererFile).href);
  if (!isLandingRendererModule(loaded)) throw new Error(`${rendererFile} does not export renderHomePage`);
  return (input) => loaded.renderHomePage(template, input);
}

/** A page made per request, compressed as the client accepts; `vary` names what it depends on. */
async function sendPage(request: FastifyRequest, reply: FastifyReply, html: string, vary: string): Promise<FastifyReply> {
  reply.header('cache-control', REVALIDATE).header('vary', vary).type('text/html; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(html);
  return reply.header('content-encoding', encoding).send(await compress(html, encoding));
}

/**
 * The SPA's page for a route: the build's index.html (from its precompressed copies), or, for a route whose chunks
 * the build listed, the same page naming them as module preloads (route-preloads.ts).
 */
function spaSender(webDistDir: string): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | FastifyReply {
  const preloads = loadRoutePreloads(webDistDir);
  const indexHtml = fs.readFileSync(path.join(webDistDir, 'index.html'), 'utf8');
  return (request, reply) => {
    const chunks = preloadsFor(preloads, new URL(request.url, 'http://host').pathname);
    if (chunks.length > 0) return sendPage(request, reply, withPreloads(indexHtml, chunks), 'Accept-Encoding');
    return reply.header('cache-control', REVALIDATE).type('text/html; charset=utf-8').sendFile('index.html');
  };
}

export type SpaOptions = {
  webDistDir: string;
  /** What "/" shows on the request's host to its visitor (modules/landing/service.ts). */
  landingInput: (request: FastifyRequest) => Promise<LandingPageInput>;
};

/**
 * Serves the built web app. "/" is drawn here (ADR 019): the landing page of the host asked for, in HTML, with no
 * script. Everything else is the SPA, with history fallback: any GET outside /api that is not a file gets
 * index.html, and the client router shows the page (or its own not-found screen). Unknown /api paths stay JSON 404s.
 * Files are sent brotli- or gzip-compressed from the copies the build made, as the client accepts; the SPA's page for
 * a route names the route's chunks as module preloads.
 */
export async function registerSpa(app: FastifyInstance, { webDistDir, landingInput }: SpaOptions): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      // send's own header (public, max-age=0) would overwrite ours below: hashed assets must be immutable.
      cacheControl: false,
      // The compressed copies are sent in place of their originals, never under their own names; the landing's
      // template is not a page by itself.
      globIgnore: ['**/*.br', '**/*.gz', `${LANDING_TEMPLATE}*`],
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? IMMUTABLE : REVALIDATE);
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  } else {
    app.log.warn({ webDistDir }, 'web build not found: run `npm run build` to serve the app');
  }

  const sendSpa = hasBuild ? spaSender(webDistDir) : null;
  const renderLanding = sendSpa ? await loadLandingRenderer(webDistDir) : null;
  if (sendSpa && renderLanding) {
    app.get('/', async (request, reply) => {
      // The e-mail confirmation lands here and says so in a toast, which the SPA draws.
      if (new URL(request.url, 'http://host').searchParams.has(EMAIL_CONFIRMED_PARAM)) return sendSpa(request, reply);
      let html: string;
      try {
        html = renderLanding(await landingInput(request));
      } catch (error) {
        // The database is away, say: the SPA still loads, and says so on its own screens.
        request.log.warn({ err: error }, 'landing.render_failed');
        return sendSpa(request, reply);
      }
      return sendPage(request, reply, html, 'Accept-Encoding, Cookie');
    });
  } else if (hasBuild) {
    app.log.warn({ webDistDir }, 'the web build has no landing renderer (dist/.server): the SPA draws "/"');
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(request.url);
    if (wantsPage && sendSpa) return sendSpa(request, reply);
    return reply.status(404).send({ error: { code: 'ROUTE_NOT_FOUND', message: defaultErrorMessage('ROUTE_NOT_FOUND') } });
  });
}
