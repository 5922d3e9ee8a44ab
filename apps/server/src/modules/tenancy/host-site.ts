import { isIP } from 'node:net';
import { eq, or } from 'drizzle-orm';
import { clinicStandingOf } from '@carteirinha/shared/clinic-standing';
import type { ClinicStatus } from '@carteirinha/shared/contracts/clinics';
import type { Database } from '../../db/client.ts';
import { clinics } from '../../db/schema.ts';
import type { CacheInvalidation } from '../../lib/cache-invalidation.ts';

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
  /** A self-service sign-up that 'Aprovar Cadastro' has not accepted: its site shows "Aguardando aprovação". */
  awaitingApproval: boolean;
};

/** What a request's host is: the platform, one clinic's site, a clinic that cannot serve now, or nothing we know. */
export type HostSite =
  | { kind: 'platform' }
  | { kind: 'clinic'; clinic: ClinicSite }
  | { kind: 'unavailable'; clinic: ClinicSite }
  | { kind: 'unknown' };

/**
 * Suspended and cancelled clinics, and trials that ran out, keep their data but their site is closed (ADR 010: the
 * same standing the access guard checks on every host).
 */
function isServing(clinic: { status: ClinicStatus; trialEndsAt: Date | null }): boolean {
  return clinicStandingOf(clinic, new Date()) === 'open';
}

/** Waiting for 'Aprovar Cadastro': a trial the platform has not accepted (admins' clinics are accepted at creation). */
export function isAwaitingApproval(clinic: { status: ClinicStatus; approvedAt: Date | null }): boolean {
  return clinic.status === 'trial' && clinic.approvedAt === null;
}

const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 5_000;

export type HostResolver = {
  resolve: (hostname: string) => Promise<HostSite>;
  /** Forget cached hosts, in every server process, after a clinic's domain, slug, status or branding changes. */
  invalidate: () => Promise<void>;
};

/**
 * Maps a host name to its site: the main domain (and IPs, and the public URL's host) is the platform;
 * `<slug>.<main domain>` or a clinic's own `domain` is that clinic. Answers are cached briefly, because every request
 * asks and the mapping changes rarely.
 */
export function createHostResolver(db: Database, options: { mainDomain: string; publicUrl: string; caches: CacheInvalidation }): HostResolver {
  const platformHosts = new Set([options.mainDomain, `www.${options.mainDomain}`, new URL(options.publicUrl).hostname, 'localhost']);
  const cache = new Map<string, { site: HostSite; expiresAt: number }>();
  options.caches.on('hosts', () => cache.clear());

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
        trialEndsAt: clinics.trialEndsAt,
        approvedAt: clinics.approvedAt,
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
    const { displayName, trialEndsAt: _trialEndsAt, approvedAt: _approvedAt, ...rest } = row;
    const clinic: ClinicSite = { ...rest, name: displayName ?? row.name, awaitingApproval: isAwaitingApproval(row) };
    return isServing(row) ? { kind: 'clinic', clinic } : { kind: 'unavailable', clinic };
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
    invalidate: () => options.caches.publish('hosts'),
  };
}

/** The address of a clinic's site: its own domain, or its sub-domain of the platform (same scheme and port). */
export function clinicSiteUrl(clinic: { slug: string; domain: string | null }, options: { mainDomain: string; publicUrl: string }): string {
  const base = new URL(options.publicUrl);
  if (clinic.domain) return `${base.protocol}//${clinic.domain}`;
  const port = base.port ? `:${base.port}` : '';
  return `${base.protocol}//${clinic.slug}.${options.mainDomain}${port}`;
}

/** A host name (letters, digits, dots, hyphens; underscores for internal names) or a bracketed IPv6 literal, and a port. */
const HOST_SHAPE = /^(?:[a-z0-9._-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;
/** 253 characters of DNS name, a colon and a port. */
const HOST_MAX_LENGTH = 260;

/**
 * Whether a Host header names a host (and port) and nothing else. User info (`user@demo.localhost`), spaces, paths,
 * percent escapes or a port that is not a number are someone probing: they would otherwise reach the host lookup and
 * better-auth's URL building, which throw on them (issue 12, item 13). The WHATWG URL parser then checks what the
 * shape cannot: the IPv6 literal and the port range.
 */
export function isWellFormedHost(host: string | undefined): boolean {
  if (!host || host.length > HOST_MAX_LENGTH || !HOST_SHAPE.test(host)) return false;
  return URL.canParse(`http://${host}`);
}
