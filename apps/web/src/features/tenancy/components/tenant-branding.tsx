import { useEffect } from 'react';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useClinicTenant } from '../api/get-tenant';
import { brandThemeVariables } from '../lib/brand-theme';

/** Points the favicon at the clinic's logo (the server re-encodes logos to a small square-ish WebP). */
function useFavicon(href: string | null) {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (href === null || link === null) return;
    const previous = { href: link.getAttribute('href'), type: link.getAttribute('type') };
    link.setAttribute('href', href);
    link.removeAttribute('type');
    return () => {
      if (previous.href !== null) link.setAttribute('href', previous.href);
      if (previous.type !== null) link.setAttribute('type', previous.type);
    };
  }, [href]);
}

/** Replaces the primary colour tokens of styles.css, and the browser's theme colour, with the clinic's. */
function useBrandColor(primaryColor: string | null) {
  useEffect(() => {
    const variables = brandThemeVariables(primaryColor);
    if (variables === null || primaryColor === null) return;
    const rootStyle = document.documentElement.style;
    for (const [name, value] of Object.entries(variables)) rootStyle.setProperty(name, value);
    const themeColor = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
    const previousThemeColor = themeColor?.content;
    if (themeColor) themeColor.content = primaryColor;
    return () => {
      for (const name of Object.keys(variables)) rootStyle.removeProperty(name);
      if (themeColor && previousThemeColor !== undefined) themeColor.content = previousThemeColor;
    };
  }, [primaryColor]);
}

/**
 * On a clinic's host, dresses the whole app in the clinic's brand (DESIGN.md §2 "White-label"): tab title, favicon
 * and colour. Mounted once, in the root route; on the platform's host it changes nothing. Effects are the right tool
 * here: they synchronise the document outside React's tree, they do not derive state.
 */
export function TenantBranding() {
  const tenant = useClinicTenant();
  useDocumentTitle(tenant?.clinic.name ?? null);
  useFavicon(tenant?.clinic.logoUrl ?? null);
  useBrandColor(tenant?.clinic.primaryColor ?? null);
  return null;
}
