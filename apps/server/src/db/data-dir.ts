import fs from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * The data folder holds the embedded database, backups, uploads and the session secret: only the server's own user
 * may read or write any of it. The process creates files with this mask (0600 files, 0700 folders).
 */
export const PRIVATE_UMASK = 0o077;
/** Group and other permission bits: none may be set anywhere under the data folder. */
const GROUP_AND_OTHER_BITS = 0o077;

/**
 * Creates the data folder (0700) and takes group and other permissions away from everything under it that has them:
 * a folder made by an older version, or copied in by hand, is fixed rather than refused, because the fix is always
 * the same and refusing would only stop the clinic's service. Symbolic links are not followed (a link's target may
 * be a shared folder the operator chose). Answers the paths whose mode changed, for the log.
 */
export async function securePrivateTree(root: string): Promise<string[]> {
  await fs.mkdir(root, { recursive: true, mode: 0o700 });
  const fixed: string[] = [];
  const visit = async (entry: string): Promise<void> => {
    const stat = await fs.lstat(entry);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & GROUP_AND_OTHER_BITS) !== 0) {
      await fs.chmod(entry, stat.mode & 0o7700);
      fixed.push(entry);
    }
    if (!stat.isDirectory()) return;
    for (const name of await fs.readdir(entry)) await visit(path.join(entry, name));
  };
  await visit(root);
  return fixed;
}

/** Another process holds the embedded database's folder. */
export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `The embedded database in ${dataDir} is in use by another Carteirinha process (lock ${dataDir}.lock). ` +
        'Two processes on one PGlite folder lose each other’s writes: stop the other server, or give this one another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * How the folder lock behaves. The holder refreshes the lock's time every `updateMs`; a lock not refreshed for
 * `staleMs` belonged to a process that died, and is taken over. A start that finds a fresh lock waits up to
 * `waitMs` (a server restarted right after a crash waits for its predecessor's lock to go stale) before refusing.
 */
export type DataDirLockTiming = { staleMs: number; updateMs: number; waitMs: number };
export const DATA_DIR_LOCK_TIMING: DataDirLockTiming = { staleMs: 15_000, updateMs: 5_000, waitMs: 17_000 };

/**
 * Takes the exclusive lock on the embedded database's folder (issue 12 item 5), or throws DataDirLockedError.
 * proper-lockfile makes `<dir>.lock` with an atomic mkdir and keeps its mtime fresh: it works across processes,
 * containers that share a volume (where a pid file's pid means nothing) and network file systems.
 * `onCompromised` runs when the lock was lost (its folder removed, or not refreshed in time because the event loop
 * was blocked for longer than `staleMs`): another process may now be writing, so the caller must stop.
 * Answers the function that releases the lock.
 */
export async function lockDataDir(
  dataDir: string,
  onCompromised: (error: Error) => void,
  timing: DataDirLockTiming = DATA_DIR_LOCK_TIMING,
): Promise<() => Promise<void>> {
  const attempts = Math.max(0, Math.ceil(timing.waitMs / 1_000));
  try {
    return await lockfile.lock(dataDir, {
      stale: timing.staleMs,
      update: timing.updateMs,
      retries: { retries: attempts, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
      onCompromised,
    });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ELOCKED') throw new DataDirLockedError(dataDir);
    throw error;
  }
}
