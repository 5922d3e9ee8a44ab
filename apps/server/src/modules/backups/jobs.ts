import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { exponentialBackoff } from '../jobs/backoff.ts';
import type { SettingsStore } from '../settings/store.ts';
import { DAILY_BACKUP, runDailyBackupIfDue, type BackupService } from './backups.ts';

export const DAILY_BACKUP_QUEUE = 'daily-backup';

/**
 * The 3 am backup as a scheduled queue: the runner enqueues each occurrence once across processes and retries a
 * failed one (5 min, 10 min … up to an hour between attempts). A process that dies mid-dump has its job taken over
 * when the lease (longer than any dump) ends (ADR 012).
 */
export function registerBackupJobs(runner: JobRunner, options: { backups: BackupService; settings: SettingsStore; log: JobLog }): void {
  runner.register(
    DAILY_BACKUP_QUEUE,
    async (job) => {
      const backup = await runDailyBackupIfDue(options.backups, options.settings, job.startedAt);
      if (backup) options.log.info({ file: backup.fileName, bytes: backup.sizeBytes }, 'daily backup written');
    },
    { leaseMs: 150 * 60_000, maxAttempts: 8, backoff: exponentialBackoff({ baseMs: 5 * 60_000, maxMs: 60 * 60_000 }) },
  );
  runner.schedule(DAILY_BACKUP_QUEUE, DAILY_BACKUP);
}
