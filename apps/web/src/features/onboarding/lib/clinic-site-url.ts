import { DEMO_CLINIC_SLUG } from '@carteirinha/shared/constants';

type Location = { protocol: string; host: string };

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/**
 * Where a clinic with `slug` will live: `<slug>.<main domain>` (DESIGN.md §2 "White-label"). The web app is not told
 * the main domain, so it is read from the demo clinic's address when the server gives one (`demo.<main domain>`, same
 * scheme and port); otherwise this page's host, without "www.", stands in for it.
 */
export function clinicSiteUrl(slug: string, demoUrl: string | null, here: Location): string {
  const demo = demoUrl ? parseUrl(demoUrl) : null;
  const demoPrefix = `${DEMO_CLINIC_SLUG}.`;
  if (demo && demo.host.startsWith(demoPrefix)) {
    return `${demo.protocol}//${slug}.${demo.host.slice(demoPrefix.length)}`;
  }
  return `${here.protocol}//${slug}.${here.host.replace(/^www\./, '')}`;
}
