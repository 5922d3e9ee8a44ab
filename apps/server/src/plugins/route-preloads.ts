import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The SPA's routes load their code in a chain: the entry, then the route's guard, its layout and its page, each found
 * only once the one before has run (three or four round trips on a phone). The build writes each route's chunks
 * (apps/web/build/bundle-budgets.ts, `routePreloadsOf`); the page sent for a route names them as module preloads, so
 * the browser fetches them all at once, with the entry.
 */

/** Written by the web build, beside its budgets' report. */
const ROUTE_PRELOADS_FILE = path.join('.vite', 'route-preloads.json');

const routePreloadsSchema = z.record(z.string(), z.array(z.string().regex(/^assets\/[\w.-]+\.js$/)));

type RoutePreload = { pattern: RegExp; chunks: string[] };

/** A router path (`/paciente/assinatura/boleto/:id`) as a regular expression over a URL's path. */
function patternOf(routePath: string): RegExp {
  const parts = routePath.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}/?$`);
}

/** The build's route preloads, or none (a build from before, or `vite dev`). */
export function loadRoutePreloads(webDistDir: string): RoutePreload[] {
  const file = path.join(webDistDir, ROUTE_PRELOADS_FILE);
  if (!fs.existsSync(file)) return [];
  const parsed = routePreloadsSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
  return Object.entries(parsed).map(([routePath, chunks]) => ({ pattern: patternOf(routePath), chunks }));
}

/** The chunks to preload for a URL's path: those of the route it matches, or none. */
export function preloadsFor(preloads: readonly RoutePreload[], pathname: string): string[] {
  return preloads.find((preload) => preload.pattern.test(pathname))?.chunks ?? [];
}

/** The SPA's page with module preloads for `chunks` (as Vite writes its own: `crossorigin`, as module scripts load). */
export function withPreloads(html: string, chunks: readonly string[]): string {
  const links = chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk}">`).join('');
  // In the head, where Vite puts its own; a page without one (a minimal test build) gets them before its body.
  return html.includes('</head>') ? html.replace('</head>', `${links}</head>`) : html.replace(/<body/i, `${links}<body`);
}
