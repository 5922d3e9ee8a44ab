import type { Database } from '../../db/client.ts';
import { clinicSiteUrl, type HostResolver } from '../tenancy/host-site.ts';
import { clinicAddressOfAccount } from './repository.ts';

/** The brand and address an e-mail to an account carries. */
export type AccountHome = { name: string; color: string; baseUrl: string };

export const PLATFORM_BRAND = { name: 'Carteirinha', color: '#0d9488' };

export type AccountHomeDeps = { db: Database; resolver: HostResolver; mainDomain: string; publicUrl: string };

/**
 * Where links to an account lead (issue 12, item 2): the canonical address of the clinic it belongs to (from the
 * database, with PUBLIC_URL's scheme and port) while that clinic's site is open, with its name and colour; else the
 * platform's PUBLIC_URL. Never the Host of a request, which whoever asks chooses (a clinic's own domain is the
 * clinic's to point anywhere).
 */
export function createAccountHome({ db, resolver, mainDomain, publicUrl }: AccountHomeDeps): (userId: string) => Promise<AccountHome> {
  return async (userId) => {
    const platform = { ...PLATFORM_BRAND, baseUrl: publicUrl };
    const address = await clinicAddressOfAccount(db, userId);
    if (!address) return platform;
    const baseUrl = clinicSiteUrl(address, { mainDomain, publicUrl });
    const site = await resolver.resolve(new URL(baseUrl).hostname);
    if (site.kind !== 'clinic') return platform;
    return { name: site.clinic.name, color: site.clinic.primaryColor ?? PLATFORM_BRAND.color, baseUrl };
  };
}
