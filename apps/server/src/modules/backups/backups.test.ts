import { describe, expect, it } from 'vitest';
import { isDailyBackupDue } from './backups.ts';

describe('daily backup at 3 am (São Paulo)', () => {
  it('is due once after each 3 am, and never when turned off', () => {
    const now = new Date('2026-11-22T06:01:00Z');
    expect(isDailyBackupDue(now, null, true)).toBe(true);
    expect(isDailyBackupDue(now, new Date('2026-11-21T06:00:30Z'), true)).toBe(true);
    expect(isDailyBackupDue(now, new Date('2026-11-22T06:00:30Z'), true)).toBe(false);
    expect(isDailyBackupDue(now, null, false)).toBe(false);
  });
});
