import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { PasswordHasher } from '../src/modules/auth/auth.ts';

/**
 * scrypt at N = 1 024, r = 8 for the in-process tests: about 1 ms a hash where better-auth's N = 16 384, r = 16 takes
 * ~60 ms of a core — 1 600 hashes were a fifth of the server suites' CPU (bench/RESULTS.md, CI). The tag keeps a
 * production hash from passing here by accident. The production parameters stay covered where the real server runs:
 * the process tests, the browser suite, and auth.int.test.ts's app built without this hasher.
 */
const TAG = 'test-scrypt';
const PARAMS = { N: 1024, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(password: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, PARAMS, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export const testPasswordHasher: PasswordHasher = {
  hash: async (password) => {
    const salt = randomBytes(16).toString('hex');
    return `${TAG}:${salt}:${(await derive(password, salt)).toString('hex')}`;
  },
  verify: async ({ hash, password }) => {
    const [tag, salt, key] = hash.split(':');
    if (tag !== TAG || !salt || !key) throw new Error(`not a hash of the tests' hasher: ${tag}`);
    return timingSafeEqual(await derive(password, salt), Buffer.from(key, 'hex'));
  },
};
