/**
 * The production build of the server (issue 28: no TypeScript transpiled at run time): one ES module,
 * dist/server.js, with our own code and the shared package bundled and every npm dependency left to node_modules, plus
 * the SQL migrations beside it (the bundle finds them at `dist/migrations`, as the sources do at `src/db/migrations`).
 * `npm start` runs it; `npm run dev` and the server tests run the sources through tsx.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { z } from 'zod';

const here = import.meta.dirname;
const manifest = z.object({ dependencies: z.record(z.string(), z.string()).default({}) });

/**
 * Every npm dependency of the server and of the shared package, and their sub-paths: loaded from node_modules. The
 * workspace's own packages (@carteirinha/*) are TypeScript sources: bundled.
 */
async function externals(): Promise<string[]> {
  const names = new Set<string>();
  for (const file of ['package.json', '../../packages/shared/package.json']) {
    const { dependencies } = manifest.parse(JSON.parse(await fs.readFile(path.join(here, file), 'utf8')));
    for (const name of Object.keys(dependencies)) if (!name.startsWith('@carteirinha/')) names.add(name);
  }
  return [...names].flatMap((name) => [name, `${name}/*`]);
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
  external: await externals(),
  logLevel: 'warning',
});
await fs.cp(path.join(here, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
