import { isIP } from 'node:net';
import { eq, or } from 'drizzle-orm';
import type { ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import type { Database } from '../../db/client.ts';
import { clinics } from '../../db/schema.ts';

/** The clinic a white-label host belongs to, with what its pages and e-mails need. */
export type ClinicSite = {
  id: string;
  name: string;
  slug: string;
  domain: string | null;
  status: ClinicStatus;
  logoUrl: string | null;
  primaryColor: string | null;
  city: string | null;
  state: string | null;
  planId: string | null;
};

/** What a request's host is: the platform, one clinic's site, a clinic that cannot serve now, or nothing we know. */
export type HostSite =
  | { kind: 'platform' }
  | { kind: 'clinic'; clinic: ClinicSite }
  | { kind: 'unavailable'; clinic: ClinicSite }
  | { kind: 'unknown' };

/** Suspended and cancelled clinics keep their data but their site is closed (issue: white-label tenancy). */
function isServing(status: ClinicStatus): boolean {
  return status === 'active' || status === 'trial';
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 5_000;

export type HostResolver = {
  resolve: (hostname: string) => Promise<HostSite>;
  /** Forget cached hosts after a clinic's domain, slug, status or branding changes. */
  invalidate: () => void;
};

/**
 * Maps a host name to its site: the main domain (and IPs, and the public URL's host) is the platform;
 * `<slug>.<main domain>` or a clinic's own `domain` is that clinic. Answers are cached briefly, because every request
 * asks and the mapping changes rarely.
 */
export function createHostResolver(db: Database, options: { mainDomain: string; publicUrl: string }): HostResolver {
  const platformHosts = new Set([options.mainDomain, `www.${options.mainDomain}`, new URL(options.publicUrl).hostname, 'localhost']);
  const cache = new Map<string, { site: HostSite; expiresAt: number }>();

  async function lookup(hostname: string): Promise<HostSite> {
    if (platformHosts.has(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return { kind: 'platform' };
    const suffix = `.${options.mainDomain}`;
    const label = hostname.endsWith(suffix) ? hostname.slice(0, -suffix.length) : null;
    const bySlug = label && !label.includes('.') ? eq(clinics.slug, label) : undefined;
    const [row] = await db
      .select({
        id: clinics.id,
        name: clinics.name,
        displayName: clinics.displayName,
        slug: clinics.slug,
        domain: clinics.domain,
        status: clinics.status,
        logoUrl: clinics.logoUrl,
        primaryColor: clinics.primaryColor,
        city: clinics.city,
        state: clinics.state,
        planId: clinics.planId,
      })
      .from(clinics)
      .where(or(eq(clinics.domain, hostname), bySlug))
      .limit(1);
    if (!row) return { kind: 'unknown' };
    const { displayName, ...rest } = row;
    const clinic: ClinicSite = { ...rest, name: displayName ?? row.name };
    return isServing(clinic.status) ? { kind: 'clinic', clinic } : { kind: 'unavailable', clinic };
  }

  return {
    async resolve(rawHostname) {
      const hostname = rawHostname.toLowerCase().replace(/\.$/, '');
      const cached = cache.get(hostname);
      if (cached && cached.expiresAt > Date.now()) return cached.site;
      const site = await lookup(hostname);
      if (cache.size >= CACHE_MAX_ENTRIES) cache.clear();
      cache.set(hostname, { site, expiresAt: Date.now() + CACHE_TTL_MS });
      return site;
    },
    invalidate() {
      cache.clear();
    },
  };
}

/** The address of a clinic's site: its own domain, or its sub-domain of the platform (same scheme and port). */
export function clinicSiteUrl(clinic: { slug: string; domain: string | null }, options: { mainDomain: string; publicUrl: string }): string {
  const base = new URL(options.publicUrl);
  if (clinic.domain) return `${base.protocol}//${clinic.domain}`;
  const port = base.port ? `:${base.port}` : '';
  return `${base.protocol}//${clinic.slug}.${options.mainDomain}${port}`;
}
