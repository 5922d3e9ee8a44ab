/**
 * "/" drawn on the server (ADR 019): the same components the SPA draws, rendered to static HTML for the host asked
 * for, so the page paints before any script and needs none. Built by `vite build --ssr` into `dist/.server/`; the
 * server calls `renderHomePage` with the answers the browser would otherwise fetch first.
 */
import type { LandingPageInput } from '@carteirinha/shared/contracts/landing';
import { escapeHtml } from '@carteirinha/shared/html';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { publicPlansQueryOptions } from '@/features/landing/api/get-public-plans';
import { tenantQueryOptions } from '@/features/tenancy/api/get-tenant';
import { brandThemeVariables } from '@/features/tenancy/lib/brand-theme';
import { HomePage } from './home-page';
import { meQueryOptions } from './session';

/** The page's answers, already in the cache: the components read them as they would after the SPA's first fetches. */
function seededQueryClient(input: LandingPageInput): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(tenantQueryOptions.queryKey, input.tenant);
  client.setQueryData(publicPlansQueryOptions.queryKey, input.plans);
  client.setQueryData(meQueryOptions.queryKey, input.me);
  return client;
}

/** Replaces the one tag `pattern` finds in the template's head, or adds `tag` to the head when it has none. */
function withHeadTag(html: string, pattern: RegExp, tag: string): string {
  // A function, not a string: `$&` or `$'` in a clinic's name must stay text, not become replacement patterns.
  return pattern.test(html) ? html.replace(pattern, () => tag) : html.replace('</head>', () => `${tag}</head>`);
}

/**
 * A clinic's host wears the clinic's brand from the first byte, as TenantBranding does in the browser: tab title,
 * favicon, the browser's theme colour and the colour tokens (a `:root` block after the stylesheet, which it
 * overrides). The platform's host keeps the template's own head.
 */
function brandedHead(html: string, tenant: LandingPageInput['tenant']): string {
  if (tenant.kind !== 'clinic') return html;
  const { name, logoUrl, primaryColor } = tenant.clinic;
  let branded = withHeadTag(html, /<title>[^<]*<\/title>/, `<title>${escapeHtml(name)}</title>`);
  if (logoUrl) branded = withHeadTag(branded, /<link rel="icon"[^>]*>/, `<link rel="icon" href="${escapeHtml(logoUrl)}" />`);
  const variables = brandThemeVariables(primaryColor);
  if (variables === null || primaryColor === null) return branded;
  branded = withHeadTag(branded, /<meta name="theme-color"[^>]*>/, `<meta name="theme-color" content="${escapeHtml(primaryColor)}" />`);
  const declarations = Object.entries(variables)
    .map(([property, value]) => `${property}:${value}`)
    .join(';');
  return branded.replace('</head>', () => `<style>:root{${escapeHtml(declarations)}}</style></head>`);
}

/** The markup of "/" for this host and visitor: the clinic's page, its awaiting-approval page, or the platform's. */
export function renderHomePageMarkup(input: LandingPageInput): string {
  return renderToStaticMarkup(
    <QueryClientProvider client={seededQueryClient(input)}>
      <StaticRouter location="/">
        <HomePage contact={input.contact} />
      </StaticRouter>
    </QueryClientProvider>,
  );
}

/** The whole document of "/": `template` is the build's `landing.html` (index.html without its scripts). */
export function renderHomePage(template: string, input: LandingPageInput): string {
  const markup = renderHomePageMarkup(input);
  return brandedHead(template, input.tenant).replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`);
}
