/**
 * The production build of the server (issue 28: no TypeScript transpiled at run time): one ES module,
 * dist/server.js, with our own code, the shared package and most npm dependencies bundled (LEFT_TO_NODE_MODULES names
 * the rest), plus the SQL migrations beside it (the bundle finds them at `dist/migrations`, as the sources do at
 * `src/db/migrations`).
 * `npm start` runs it; `npm run dev` and the server tests run the sources through tsx.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;

/**
 * The npm dependencies left to node_modules: those that find files of their own at run time (PGlite's WebAssembly and
 * data, the API viewer's pages), load native code (sharp), start workers by file name (pino's transports), or are the
 * development loader (tsx); pg, whose optional native driver is looked up by a require in a try. Everything else is
 * bundled: resolving and reading a few hundred files of node_modules was most of the start's second (issue 28).
 */
const LEFT_TO_NODE_MODULES = ['@electric-sql/pglite', '@fastify/swagger-ui', 'sharp', 'pino', 'pino-pretty', 'tsx', 'pg'];

function externals(): string[] {
  return LEFT_TO_NODE_MODULES.flatMap((name) => [name, `${name}/*`]);
}

const outdir = path.join(here, 'dist');
await fs.rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, 'src/server.ts')],
  outfile: path.join(outdir, 'server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: 'linked',
  external: externals(),
  // Bundled CommonJS packages call require() for Node's own modules; an ES module has none of its own.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
await fs.cp(path.join(here, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
