import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withoutScripts } from '../../web/build/landing-template.ts';

const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
/** The web app's own Vite, run as `npm run build` runs it. */
const VITE_BIN = path.join(path.dirname(createRequire(path.join(WEB_ROOT, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');

/**
 * The web app's real landing renderer in a test's web folder: `vite build --ssr` of apps/web into `.server/`, and the
 * template the client build makes (index.html without its scripts). A few seconds: build it once per test file.
 * A process of its own, with NODE_ENV=production as the real build has (the tests run with NODE_ENV=test).
 */
export async function buildLandingInto(webDir: string): Promise<void> {
  await promisify(execFile)(process.execPath, [VITE_BIN, 'build', '--ssr', 'src/app/render-home-page.tsx', '--outDir', path.join(webDir, '.server'), '--logLevel', 'warn'], {
    cwd: WEB_ROOT,
    env: { ...process.env, NODE_ENV: 'production', VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  const index = await fs.readFile(path.join(WEB_ROOT, 'index.html'), 'utf8');
  await fs.writeFile(path.join(webDir, 'landing.html'), withoutScripts(index));
}
