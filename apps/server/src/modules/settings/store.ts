import type { FastifyBaseLogger } from 'fastify';
import type { PlatformSettingsInput } from '@carteirinha/shared/contracts/settings';
import type { Database } from '../../db/client.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { ensureSettingsRow, findSettingsRow, updateSettingsRow, type SettingsRow } from './repository.ts';
import type { CacheInvalidation } from '../../lib/cache-invalidation.ts';

export type { SettingsRow };

export type SettingsStore = {
  /** The current settings; read on most requests, so kept for a few seconds (other processes see a save within that). */
  get: () => Promise<SettingsRow>;
  save: (input: PlatformSettingsInput, actorUserId: string) => Promise<SettingsRow>;
  /** The stored SMTP password in clear, for the mailer only. */
  smtpPassword: (row: SettingsRow) => string | null;
};

const CACHE_MS = 5_000;

/**
 * What the embedded demo seed starts with (issue 4): the demo accounts sign in with their password alone, and
 * several people may use one demo account at once. A real deployment starts from the column defaults.
 */
export const DEMO_SETTINGS = { requireAdminTwoFactor: false, allowMultipleSessions: true } as const;

export function createSettingsStore(db: Database, box: SecretBox, log: FastifyBaseLogger, caches: CacheInvalidation): SettingsStore {
  let cached: { row: SettingsRow; at: number } | null = null;
  caches.on('settings', () => (cached = null));

  async function load(): Promise<SettingsRow> {
    const row = await findSettingsRow(db);
    if (row) return row;
    await ensureSettingsRow(db);
    return load();
  }

  return {
    async get() {
      if (cached && Date.now() - cached.at < CACHE_MS) return cached.row;
      const row = await load();
      cached = { row, at: Date.now() };
      return row;
    },

    async save(input, actorUserId) {
      await ensureSettingsRow(db);
      const { smtpPassword, currentPassword: _password, ...fields } = input;
      const row = await db.transaction(async (tx) => {
        const updated = await updateSettingsRow(tx, {
          ...fields,
          // Empty keeps the stored password; clearing the server clears it too.
          ...(smtpPassword ? { smtpPasswordEncrypted: box.seal(smtpPassword) } : {}),
          ...(fields.smtpHost === null ? { smtpPasswordEncrypted: null } : {}),
          updatedBy: actorUserId,
        });
        if (!updated) throw new Error('platform settings row missing');
        await recordAudit(tx, {
          actorUserId,
          action: 'settings.updated',
          entity: 'settings',
          entityId: null,
          details: { ...fields, smtpPasswordChanged: Boolean(smtpPassword) },
        });
        return updated;
      });
      await caches.publish('settings');
      cached = { row, at: Date.now() };
      return row;
    },

    smtpPassword(row) {
      if (!row.smtpPasswordEncrypted) return null;
      try {
        return box.open(row.smtpPasswordEncrypted);
      } catch {
        // Sealed under another auth secret (AUTH_SECRET changed, DATA_DIR/auth-secret lost): e-mail still goes out
        // without authentication, and saving the password again on the screen seals it anew.
        log.error('the stored SMTP password cannot be opened with this auth secret; type it again in Configurações');
        return null;
      }
    },
  };
}
