import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundleBudgets } from './build/bundle-budgets.ts';
import { catalogueSections } from './build/catalogue-sections.ts';
import { BUDGETS, DEFERRED, HEAVY_CODE } from './build/budgets.ts';
import { landingTemplate } from './build/landing-template.ts';
import { precompress } from './build/precompress.ts';
import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * In development Vite serves the SPA and forwards /api to the Fastify server; in production the server serves dist/.
 * `npm run build` makes two builds: the client (dist/: the SPA, the landing's template, their brotli and gzip copies,
 * checked against the JavaScript budgets) and the landing's server renderer (`--ssr`, into dist/.server/, ADR 019).
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    zodWithoutJsonSchema(),
    catalogueSections({ catalogue: fileURLToPath(new URL('../../packages/shared/src/messages.ts', import.meta.url)) }),
    landingTemplate(),
    bundleBudgets({ budgets: BUDGETS, heavy: HEAVY_CODE, deferred: DEFERRED, root }),
    precompress(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000' },
  },
  // The renderer is one self-contained file: the server imports it from wherever the build is (WEB_DIST_DIR). Its
  // React is the production one, whatever NODE_ENV the server runs with.
  ssr: { noExternal: true },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: isSsrBuild
    ? { outDir: 'dist/.server', emptyOutDir: true, sourcemap: false, copyPublicDir: false }
    : { outDir: 'dist', emptyOutDir: true, sourcemap: false },
}));
