import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bundleBudgets } from './build/bundle-budgets.ts';
import { catalogueSections } from './build/catalogue-sections.ts';
import { BUDGETS, DEFERRED, HEAVY_CODE } from './build/budgets.ts';
import { landingTemplate } from './build/landing-template.ts';
import { precompress } from './build/precompress.ts';
import { zodWithoutJsonSchema } from './build/zod-without-json-schema.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built SPA runs React's API on Preact (ADR 021): React DOM is ~70 KiB gzipped, preact/compat ~7. The server's
 * renderer of the landing (--ssr) keeps React's own, and so does `vite dev`, for React's Fast Refresh; the browser
 * tests run the build. Exact matches, so that `react-dom/server` and friends are not caught by the `react-dom` entry.
 */
const PREACT_COMPAT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * In development Vite serves the SPA and forwards /api to the Fastify server; in production the server serves dist/.
 * `npm run build` makes two builds: the client (dist/: the SPA, the landing's template, their brotli and gzip copies,
 * checked against the JavaScript budgets) and the landing's server renderer (`--ssr`, into dist/.server/, ADR 019).
 */
export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    zodWithoutJsonSchema(),
    catalogueSections({ catalogue: fileURLToPath(new URL('../../packages/shared/src/messages.ts', import.meta.url)) }),
    landingTemplate(),
    // The service worker is ours (src/features/pwa/service-worker/service-worker.ts, ADR 031): Workbox precaches the app shell the
    // build lists here. The manifest is the server's, per host (GET /api/app/manifest.webmanifest); the page registers
    // the worker itself, after the first paint (features/pwa/lib/register-service-worker.ts).
    ...(isSsrBuild ? [] : [VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/features/pwa/service-worker',
      filename: 'service-worker.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['index.html', 'assets/**/*.{js,css,woff2,svg,png}', 'favicon.svg'],
        globIgnores: ['landing.html', '.server/**', '**/*.br', '**/*.gz'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false },
    })]),
    bundleBudgets({ budgets: BUDGETS, heavy: HEAVY_CODE, deferred: DEFERRED, root }),
    precompress(),
  ],
  resolve: {
    alias: [
      { find: '@', replacement: fileURLToPath(new URL('./src', import.meta.url)) },
      ...(command === 'build' && !isSsrBuild ? PREACT_COMPAT : []),
    ],
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
