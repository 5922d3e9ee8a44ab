import type { Plugin } from 'vite';

/** The page the server fills with the landing's markup (ADR 019), written beside index.html. */
export const LANDING_TEMPLATE = 'landing.html';

/**
 * index.html without the SPA: its module scripts and module preloads taken out, its head and stylesheet kept. The
 * server-rendered landing is served in it, so it paints with no JavaScript at all, and it cannot drift from the
 * SPA's own page (title, icons, stylesheet).
 */
export function withoutScripts(html: string): string {
  return html
    .replace(/\s*<script\b[^>]*\btype=["']?module["']?[^>]*>\s*<\/script>/gi, '')
    .replace(/\s*<link\b[^>]*\brel=["']?modulepreload["']?[^>]*>/gi, '');
}

export function landingTemplate(): Plugin {
  return {
    name: 'carteirinha:landing-template',
    apply: (_config, env) => env.command === 'build' && env.isSsrBuild !== true,
    enforce: 'post',
    generateBundle(_outputOptions, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') this.error('index.html is missing from the build');
      const html = typeof index.source === 'string' ? index.source : new TextDecoder().decode(index.source);
      this.emitFile({ type: 'asset', fileName: LANDING_TEMPLATE, source: withoutScripts(html) });
    },
  };
}
