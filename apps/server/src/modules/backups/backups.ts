import fs from 'node:fs/promises';
import path from 'node:path';
import type { BackupInfo } from '@carteirinha/shared/contracts/settings';
import type { DatabaseHandle } from '../../db/client.ts';
import { isDue, lastOccurrence, type Schedule } from '../../lib/schedule.ts';
import { runClaimedJob } from '../settings/repository.ts';
import type { SettingsStore } from '../settings/store.ts';

const BACKUP_PREFIX = 'carteirinha-';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Specification §9: the daily backup runs at 3 am. */
export const DAILY_BACKUP: Schedule = { hour: 3 };

export type BackupService = {
  /** 'Fazer Backup Agora': writes one file under DATA_DIR/backups, then applies the retention. */
  backupNow: () => Promise<BackupInfo>;
  /**
   * The backup of the 3 am occurrence `due`, made by the one process that claims it in the database; null when
   * another process has it (or the daily backup is off). A failed backup gives the claim back.
   */
  dailyBackup: (due: Date, now: Date) => Promise<BackupInfo | null>;
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

export function createBackupService(options: { database: DatabaseHandle; dataDir: string; settings: SettingsStore }): BackupService {
  const folder = path.join(options.dataDir, 'backups');
  const { db } = options.database;
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
          return { fileName: name, sizeBytes: stat.size, createdAt: stat.mtime.toISOString() };
        }),
    );
    return backups.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async function prune(retentionDays: number, now = new Date()): Promise<number> {
    const cutoff = now.getTime() - retentionDays * DAY_MS;
    const old = (await list()).filter((backup) => new Date(backup.createdAt).getTime() < cutoff);
    await Promise.all(old.map((backup) => fs.rm(path.join(folder, backup.fileName), { force: true })));
    return old.length;
  }

  async function write(): Promise<BackupInfo> {
    // Backups hold password hashes and personal data: readable by the server's user only.
    await fs.mkdir(folder, { recursive: true, mode: 0o700 });
    const now = new Date();
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
    return { fileName, sizeBytes: stat.size, createdAt: stat.mtime.toISOString() };
  }

  // Two clicks (or the job and a click) at once make one backup, not two competing dumps.
  function backupNow(): Promise<BackupInfo> {
    running ??= write().finally(() => {
      running = null;
    });
    return running;
  }

  function dailyBackup(due: Date, now: Date): Promise<BackupInfo | null> {
    return runClaimedJob(db, 'dailyBackup', due, now, backupNow);
  }

  return { backupNow, dailyBackup, latest: async () => (await list())[0] ?? null, list, prune };
}

/**
 * One tick of the daily job. The retention applies on every tick, daily backups on or off (manual backups age too;
 * it costs a directory listing). Then the backup is made when it is due, and answered (null when nothing was due,
 * or another process made it).
 */
export async function runDailyBackupIfDue(backups: BackupService, settings: SettingsStore, now = new Date()): Promise<BackupInfo | null> {
  const { backupDailyEnabled, backupRetentionDays } = await settings.get();
  await backups.prune(backupRetentionDays, now);
  const latest = await backups.latest();
  if (!isDailyBackupDue(now, latest ? new Date(latest.createdAt) : null, backupDailyEnabled)) return null;
  return backups.dailyBackup(lastOccurrence(now, DAILY_BACKUP), now);
}
