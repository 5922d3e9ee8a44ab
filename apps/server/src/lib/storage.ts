import fs from 'node:fs/promises';
import path from 'node:path';

/** Where uploaded files live. Local disk by default; an S3-compatible store implements the same three calls. */
export type Storage = {
  /** Stores bytes under a key like `logos/<id>.webp` and returns the public URL path. */
  put: (key: string, bytes: Buffer) => Promise<string>;
  /** Removes the file behind a URL that `put` returned; unknown URLs are ignored. */
  removeByUrl: (url: string) => Promise<void>;
  /** The folder the server publishes under /uploads/ (local storage only). */
  localRoot: string;
};

const PUBLIC_PREFIX = '/uploads/';
const SAFE_KEY = /^[a-z0-9-]+\/[a-zA-Z0-9._-]+$/;

export function createLocalStorage(dataDir: string): Storage {
  const root = path.join(dataDir, 'uploads');
  return {
    localRoot: root,
    async put(key, bytes) {
      if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key: ${key}`);
      const file = path.join(root, key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, bytes);
      return `${PUBLIC_PREFIX}${key}`;
    },
    async removeByUrl(url) {
      const key = url.startsWith(PUBLIC_PREFIX) ? url.slice(PUBLIC_PREFIX.length) : '';
      if (!SAFE_KEY.test(key)) return;
      await fs.rm(path.join(root, key), { force: true });
    },
  };
}
