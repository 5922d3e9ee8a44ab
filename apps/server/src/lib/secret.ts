import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The secret that signs session cookies. A deployment sets AUTH_SECRET; the embedded default makes one on first
 * start and keeps it in the data folder, so sessions survive a restart without any setup.
 */
export async function resolveAuthSecret(options: { authSecret: string | undefined; dataDir: string }): Promise<string> {
  if (options.authSecret) return options.authSecret;
  const file = path.join(options.dataDir, 'auth-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(32).toString('base64url');
    await fs.mkdir(options.dataDir, { recursive: true });
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600 });
    return secret;
  }
}
