import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { phoneSchema } from '../validators.ts';

const s = messages.settings;

/** Figures of the Configurações screen (specification §9: timeout 30 min, retention 30 days). */
export const SESSION_TIMEOUT_MINUTES = { min: 5, max: 720, default: 30 } as const;
export const BACKUP_RETENTION_DAYS = { min: 1, max: 365, default: 30 } as const;
/**
 * 'Tamanho mínimo da senha': §9's 6 is the floor and the default; an admin may ask for more (ASVS suggests 8, NIST 15
 * without a second factor), up to 64 so that a password manager's long passwords always fit (ADR 007).
 */
export const PASSWORD_MIN_LENGTH_SETTING = { min: PASSWORD_MIN_LENGTH, max: 64, default: PASSWORD_MIN_LENGTH } as const;

/** Empty text means "not set": stored as null. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((value) => value || null);

/** A whole number typed in a field (text or number) within [min, max]. */
const wholeNumber = (min: number, max: number, message: string) =>
  z.preprocess((value) => (typeof value === 'string' ? (value.trim() === '' ? undefined : Number(value)) : value), z.number(message).int(message).min(min, message).max(max, message));

/** Every on/off setting of the screen, the same in the form and in the answer. */
const SETTING_SWITCHES = {
  notifyNewClinics: z.boolean(),
  notifyPendingPayments: z.boolean(),
  notifyAutomaticReports: z.boolean(),
  notifyCancellations: z.boolean(),
  requireAdminTwoFactor: z.boolean(),
  googleLogin: z.boolean(),
  allowMultipleSessions: z.boolean(),
  backupDailyEnabled: z.boolean(),
};

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * 'Salvar Alterações' on /admin/configuracoes. The SMTP password is write-only: empty keeps the stored one.
 * The main domain is not here: it is deployment configuration (MAIN_DOMAIN), shown read-only.
 */
export const platformSettingsFormSchema = z.object({
  platformName: z.string().trim().min(1, s.platformNameRequired).max(80),
  supportEmail: z.string().trim().toLowerCase().pipe(z.email(messages.validation.invalidEmail)),
  /** Stored as digits ("11987654321") whatever mask was typed; empty means none. */
  phone: z
    .string()
    .trim()
    .nullish()
    .pipe(z.union([z.literal('').transform(() => null), z.null(), z.undefined().transform(() => null), phoneSchema])),
  ...SETTING_SWITCHES,
  sessionTimeoutMinutes: wholeNumber(SESSION_TIMEOUT_MINUTES.min, SESSION_TIMEOUT_MINUTES.max, s.sessionTimeoutInvalid),
  passwordMinLength: wholeNumber(PASSWORD_MIN_LENGTH_SETTING.min, PASSWORD_MIN_LENGTH_SETTING.max, s.passwordMinLengthInvalid),
  smtpHost: optionalText(253).refine((value) => value === null || HOST_NAME.test(value), s.hostInvalid),
  smtpPort: wholeNumber(1, 65_535, s.portInvalid),
  smtpUser: optionalText(200),
  smtpPassword: optionalText(200),
  backupRetentionDays: wholeNumber(BACKUP_RETENTION_DAYS.min, BACKUP_RETENTION_DAYS.max, s.retentionInvalid),
  /** The admin's password, asked only when a change weakens security or moves e-mail (see `needsReauthentication`). */
  currentPassword: z.string().max(128).optional(),
});
export type PlatformSettingsForm = z.input<typeof platformSettingsFormSchema>;
export type PlatformSettingsInput = z.output<typeof platformSettingsFormSchema>;

/**
 * Changes that an admin's session alone may not make (security checklist 11, re-authentication): turning off
 * two-factor, allowing multiple sessions, a longer timeout, a shorter password minimum, or another SMTP server, which
 * would receive every password-reset link.
 */
export function needsReauthentication(
  saved: Pick<
    PlatformSettingsInput,
    'requireAdminTwoFactor' | 'allowMultipleSessions' | 'sessionTimeoutMinutes' | 'passwordMinLength' | 'smtpHost' | 'smtpPort' | 'smtpUser'
  >,
  next: Pick<
    PlatformSettingsInput,
    'requireAdminTwoFactor' | 'allowMultipleSessions' | 'sessionTimeoutMinutes' | 'passwordMinLength' | 'smtpHost' | 'smtpPort' | 'smtpUser' | 'smtpPassword'
  >,
): boolean {
  return (
    (saved.requireAdminTwoFactor && !next.requireAdminTwoFactor) ||
    (!saved.allowMultipleSessions && next.allowMultipleSessions) ||
    next.sessionTimeoutMinutes > saved.sessionTimeoutMinutes ||
    next.passwordMinLength < saved.passwordMinLength ||
    next.smtpHost !== saved.smtpHost ||
    next.smtpPort !== saved.smtpPort ||
    next.smtpUser !== saved.smtpUser ||
    next.smtpPassword !== null
  );
}

export const backupInfoSchema = z.object({
  fileName: z.string(),
  sizeBytes: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type BackupInfo = z.infer<typeof backupInfoSchema>;

/** GET /api/admin/settings: what the screen shows. */
export const platformSettingsSchema = z.object({
  platformName: z.string(),
  supportEmail: z.string(),
  phone: z.string().nullable(),
  ...SETTING_SWITCHES,
  sessionTimeoutMinutes: z.number().int(),
  passwordMinLength: z.number().int(),
  smtpHost: z.string().nullable(),
  smtpPort: z.number().int(),
  smtpUser: z.string().nullable(),
  backupRetentionDays: z.number().int(),
  smtpPasswordSet: z.boolean(),
  mainDomain: z.string(),
  lastBackup: backupInfoSchema.nullable(),
  /**
   * The embedded demo seed made this row: two-factor off so the demo accounts sign in with their password alone,
   * and multiple sessions on so several people can try the same demo account at once.
   */
  demoSeed: z.boolean(),
  /** Whether the server has Google OAuth credentials: without them the toggle has no effect. */
  googleAvailable: z.boolean(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type PlatformSettings = z.infer<typeof platformSettingsSchema>;

/** POST /api/admin/settings/smtp-test: tries the SMTP fields as typed (the stored password when left empty). */
export const smtpTestSchema = platformSettingsFormSchema.pick({ smtpHost: true, smtpPort: true, smtpUser: true, smtpPassword: true });
export const smtpTestResultSchema = z.object({ ok: z.boolean(), message: z.string() });
export type SmtpTestResult = z.infer<typeof smtpTestResultSchema>;
