import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '@carteirinha/shared/messages';
import { escapeHtml } from '@carteirinha/shared/html';
import { isWellFormedHost, type HostResolver, type HostSite } from '../modules/tenancy/host-site.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every request by the hook below; null only before it runs. */
    site: HostSite | null;
  }
}

/** The site of a request that went through the host hook (every request does). */
export function siteOf(request: FastifyRequest): HostSite {
  if (!request.site) throw new Error('host site not resolved: is registerHostSite registered?');
  return request.site;
}

/** Probes and the OpenAPI viewer answer on any host (load balancers call by IP or by internal names). */
function isHostAgnostic(url: string): boolean {
  return isProbe(url) || url.startsWith('/api/docs');
}

/** Liveness and readiness probes: answered without resolving the host, which reads the database (issue 12 item 3). */
function isProbe(url: string): boolean {
  return url.startsWith('/api/health') || url.startsWith('/api/ready');
}

function closedSitePage(title: string, text: string, platformUrl: string, hint: string | null): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title></head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f6f8;font-family:system-ui,sans-serif;color:#1f2937">
<main style="max-width:480px;padding:32px;background:#fff;border-radius:12px;text-align:center">
<h1 style="font-size:24px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 24px;line-height:1.5;color:#4b5563">${escapeHtml(text)}</p>
${hint ? `<p style="margin:0 0 24px;line-height:1.5;color:#4b5563">${escapeHtml(hint)}</p>\n` : ''}<a href="${escapeHtml(platformUrl)}" style="color:#0f766e;font-weight:600">${escapeHtml(messages.tenancy.backToPlatform)}</a>
</main></body></html>`;
}

function answerClosedSite(reply: FastifyReply, url: string, site: HostSite, platformUrl: string): FastifyReply {
  const unavailable = site.kind === 'unavailable';
  const title = unavailable ? messages.tenancy.clinicUnavailableTitle : messages.tenancy.clinicNotFoundTitle;
  const text = unavailable ? messages.tenancy.clinicUnavailable : messages.tenancy.clinicNotFound;
  if (url.startsWith('/api/')) {
    return reply.status(404).send({ error: { code: 'NOT_FOUND', message: text } });
  }
  // A closed clinic's patients still reach their own records (ADR 010): on the platform's site.
  const hint = unavailable ? messages.tenancy.closedSiteSignIn : null;
  return reply.status(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(closedSitePage(title, text, platformUrl, hint));
}

/**
 * A Host header that is not a plain host and port: 400, before it reaches the host lookup or better-auth (which
 * builds URLs from it). With a trusted proxy the forwarded host is checked too: `request.host` is the one it names.
 */
function hasWellFormedHost(request: FastifyRequest): boolean {
  return isWellFormedHost(request.headers.host) && isWellFormedHost(request.host);
}

function answerMalformedHost(reply: FastifyReply, url: string, platformUrl: string): FastifyReply {
  const { invalidHostTitle: title, invalidHost: text } = messages.tenancy;
  if (url.startsWith('/api/')) return reply.status(400).send({ error: { code: 'VALIDATION', message: text } });
  return reply.status(400).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(closedSitePage(title, text, platformUrl, null));
}

/**
 * Tells every request which site it is on (the platform or one clinic, DESIGN.md §2 "White-label"). An unknown host,
 * or a suspended or cancelled clinic's host, gets a clear pt-BR page instead of the platform.
 */
export function registerHostSite(app: FastifyInstance, deps: { resolver: HostResolver; publicUrl: string }): void {
  app.decorateRequest('site', null);
  app.addHook('onRequest', async (request, reply) => {
    if (isProbe(request.url)) return;
    if (!hasWellFormedHost(request)) {
      request.site = { kind: 'unknown' };
      return isHostAgnostic(request.url) ? undefined : answerMalformedHost(reply, request.url, deps.publicUrl);
    }
    const site = await deps.resolver.resolve(request.hostname);
    request.site = site;
    if (site.kind === 'platform' || site.kind === 'clinic' || isHostAgnostic(request.url)) return;
    return answerClosedSite(reply, request.url, site, deps.publicUrl);
  });
}
