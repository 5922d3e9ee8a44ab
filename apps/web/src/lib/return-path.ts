import { PORTAL_HOME, PORTALS, portalOfRole, type Portal, type Role } from '@carteirinha/shared/roles';

/** The query parameter of /auth that names the page a signed-out visitor asked for. */
export const RETURN_PARAM = 'next';

/** Any origin will do: a relative path resolved against it must stay on it. */
const PROBE_ORIGIN = 'https://return-path.invalid';

/** Backslashes and control characters (tab, newline) are how "/\evil" and "/\t/evil" sneak a second slash in. */
function hasSlashTricks(value: string): boolean {
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (char === '\\' || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The page to go back to after sign-in, when `raw` is a path of this site: "/admin/planos?page=2" is kept; anything
 * that could leave the site is refused (null) — "//evil.example", "https://…", "/\evil.example" (browsers read the
 * backslash as a slash), "javascript:…", control characters.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//')) return null;
  if (hasSlashTricks(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The portal a path belongs to ("/admin/planos" → admin), or null for a page outside the portals. */
function portalOfPath(path: string): Portal | null {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  return PORTALS.find((portal) => pathname === PORTAL_HOME[portal] || pathname.startsWith(`${PORTAL_HOME[portal]}/`)) ?? null;
}

/**
 * Where a signed-in user goes: the page they asked for when it is a safe path of their own portal, otherwise their
 * portal's home (specification §4: each role has its dashboard).
 */
export function landingPathFor(role: Role, requested: string | null | undefined): string {
  const home = PORTAL_HOME[portalOfRole(role)];
  const path = safeReturnPath(requested);
  return path && portalOfPath(path) === portalOfRole(role) ? path : home;
}

/** /auth, remembering the page asked for (when it is worth coming back to). */
export function signInPathFor(requested: string): string {
  const path = safeReturnPath(requested);
  return path && portalOfPath(path) ? `/auth?${new URLSearchParams({ [RETURN_PARAM]: path }).toString()}` : '/auth';
}
