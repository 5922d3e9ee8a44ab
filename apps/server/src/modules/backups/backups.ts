import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackupInfo } from '@carteirinha/shared/contracts/settings';
import type { DatabaseHandle } from '../../db/client.ts';
import { isDue, type Schedule } from '../../lib/schedule.ts';
import type { SettingsStore } from '../settings/store.ts';

const BACKUP_PREFIX = 'carteirinha-';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Specification §9: the daily backup runs at 3 am. */
export const DAILY_BACKUP: Schedule = { hour: 3 };

export type BackupService = {
  /** 'Fazer Backup Agora': writes one file under DATA_DIR/backups, stamped `now` (the app's clock), then applies the retention. */
  backupNow: (now?: Date) => Promise<BackupInfo>;
  latest: () => Promise<BackupInfo | null>;
  list: () => Promise<BackupInfo[]>;
  /** Deletes backups older than the retention; answers how many went. */
  prune: (retentionDays: number, now?: Date) => Promise<number>;
};

/** Whether the daily backup should run now: enabled, and no backup (manual ones count) since the last 3 am. */
export function isDailyBackupDue(now: Date, latest: Date | null, enabled: boolean): boolean {
  return enabled && isDue(now, latest, DAILY_BACKUP);
}

function fileNameFor(now: Date, extension: string): string {
  return `${BACKUP_PREFIX}${now.toISOString().replace(/[:.]/g, '-')}${extension}`;
}

/** `carteirinha-2026-11-26T03-00-00-123Z…` → the instant in its name. */
const STAMP = /^carteirinha-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/;

/**
 * When a backup was made: the instant in its name, which is the clock of the process that wrote it (the same clock
 * the retention and the 3 am schedule read), not the file's mtime, which is the kernel's. A file whose name carries
 * no instant (copied in by hand) falls back to its mtime.
 */
export function backupCreatedAt(fileName: string, mtime: Date): Date {
  const match = STAMP.exec(fileName);
  if (!match) return mtime;
  const [, day, hours, minutes, seconds, millis] = match;
  const stamped = new Date(`${day}T${hours}:${minutes}:${seconds}.${millis}Z`);
  return Number.isNaN(stamped.getTime()) ? mtime : stamped;
}

export function createBackupService(options: { database: DatabaseHandle; dataDir: string; settings: SettingsStore; now: () => Date }): BackupService {
  const folder = path.join(options.dataDir, 'backups');
  let running: Promise<BackupInfo> | null = null;

  async function list(): Promise<BackupInfo[]> {
    let names: string[];
    try {
      names = await fs.readdir(folder);
    } catch {
      return [];
    }
    const backups = await Promise.all(
      names
        .filter((name) => name.startsWith(BACKUP_PREFIX) && name.endsWith(options.database.backupExtension))
        .map(async (name) => {
          const stat = await fs.stat(path.join(folder, name));
          return { fileName: name, sizeBytes: stat.size, createdAt: backupCreatedAt(name, stat.mtime).toISOString() };
        }),
    );
    return backups.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async function prune(retentionDays: number, now = options.now()): Promise<number> {
    const cutoff = now.getTime() - retentionDays * DAY_MS;
    const old = (await list()).filter((backup) => new Date(backup.createdAt).getTime() < cutoff);
    await Promise.all(old.map((backup) => fs.rm(path.join(folder, backup.fileName), { force: true })));
    return old.length;
  }

  async function write(now: Date): Promise<BackupInfo> {
    // Backups hold password hashes and personal data: readable by the server's user only.
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    const fileName = fileNameFor(now, options.database.backupExtension);
    // Written under a temporary name and renamed, so a half-written file is never listed as a backup.
    const partial = path.join(folder, `.${fileName}.partial`);
    try {
      await options.database.backup(partial);
      await fs.chmod(partial, 0o600);
      await fs.rename(partial, path.join(folder, fileName));
    } finally {
      await fs.rm(partial, { force: true });
    }
    const stat = await fs.stat(path.join(folder, fileName));
    await prune((await options.settings.get()).backupRetentionDays, now);
    return { fileName, sizeBytes: stat.size, createdAt: now.toISOString() };
  }

  // Two clicks (or the job and a click) at once make one backup, not two competing dumps.
  function backupNow(now = options.now()): Promise<BackupInfo> {
    running ??= write(now).finally(() => {
      running = null;
    });
    return running;
  }

  return { backupNow, latest: async () => (await list())[0] ?? null, list, prune };
}

/**
 * One tick of the daily job. The retention applies on every tick, daily backups on or off (manual backups age too;
 * it costs a directory listing). Then the backup is made when it is due, and answered (null when nothing was due).
 * The job runner runs each 3 am occurrence once across server processes, and takes over one whose process died
 * mid-dump once its lease is over (a second backup costs only disk); a manual backup since 3 am counts as the day's.
 */
export async function runDailyBackupIfDue(backups: BackupService, settings: SettingsStore, now: Date): Promise<BackupInfo | null> {
  const { backupDailyEnabled, backupRetentionDays } = await settings.get();
  await backups.prune(backupRetentionDays, now);
  const latest = await backups.latest();
  if (!isDailyBackupDue(now, latest ? new Date(latest.createdAt) : null, backupDailyEnabled)) return null;
  return backups.backupNow(now);
}
