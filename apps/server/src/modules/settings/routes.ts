import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fromNodeHeaders } from 'better-auth/node';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import {
  backupInfoSchema,
  needsReauthentication,
  platformSettingsFormSchema,
  platformSettingsSchema,
  smtpTestResultSchema,
  smtpTestSchema,
  type PlatformSettings,
} from '@carteirinha/shared/contracts/settings';
import { errorResponses } from '@carteirinha/shared/errors';
import { PgDumpVersionMismatchError } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { verifySmtp } from '../../lib/mailer.ts';
import { resolveSmtpTarget, type SmtpFailureKind } from '../../lib/smtp-target.ts';
import { requireContext } from '../../plugins/access-control.ts';
import type { Auth } from '../auth/auth.ts';
import type { BackupService } from '../backups/backups.ts';
import type { SettingsRow } from './repository.ts';
import type { SettingsStore } from './store.ts';

const errors = errorResponses(400, 401, 403, 503);
const admin = { access: 'platform:manage' } as const;
const s = messages.settings;

export type SettingsRoutesOptions = {
  auth: Auth;
  settings: SettingsStore;
  backups: BackupService;
  mainDomain: string;
  demoSeed: boolean;
  googleAvailable: boolean;
  /** Ports an SMTP server may use (SMTP_ALLOWED_PORTS). */
  smtpAllowedPorts: readonly number[];
};

/** The pt-BR answer to a failed backup: what to do about an old pg_dump, else where to look. */
export function backupFailureMessage(error: unknown): string {
  if (error instanceof PgDumpVersionMismatchError) return formatMessage(s.backupToolTooOld, { tool: error.pgDumpMajor, server: error.serverMajor });
  return s.backupFailed;
}

/** The pt-BR reason of a failed 'Testar Conexão', one per kind of failure (issue 12, items 13 and 19). */
export function smtpFailureMessage(kind: SmtpFailureKind, allowedPorts: readonly number[]): string {
  return formatMessage(s.smtpTestFailed, { reason: formatMessage(s.smtpFailure[kind], { ports: allowedPorts.join(', ') }) });
}

/** /admin/configuracoes: the platform's settings, the SMTP check and the backups. */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, options) => {
  const { settings, backups } = options;

  /** Re-authentication for the changes `needsReauthentication` names: the admin's own password, checked again. */
  async function confirmPassword(request: FastifyRequest, password: string | undefined): Promise<void> {
    if (!password) throw new AppError('REAUTHENTICATION_REQUIRED');
    try {
      await options.auth.api.verifyPassword({ body: { password }, headers: fromNodeHeaders(request.headers) });
    } catch {
      request.log.warn({ userId: requireContext(request).userId }, 'settings.reauthentication_failed');
      throw new AppError('REAUTHENTICATION_REQUIRED', s.reauthWrongPassword);
    }
  }

  /**
   * Saving an SMTP server follows the rule of 'Testar Conexão': an SMTP port, and a host that does not resolve to a
   * private or link-local address. A name that does not resolve now is accepted: every send checks again.
   */
  async function checkSmtpServer(request: FastifyRequest, server: { smtpHost: string | null; smtpPort: number }): Promise<void> {
    const saved = await settings.get();
    if (!server.smtpHost || (server.smtpHost === saved.smtpHost && server.smtpPort === saved.smtpPort)) return;
    const target = await resolveSmtpTarget({ host: server.smtpHost, port: server.smtpPort }, options.smtpAllowedPorts);
    if (target.ok) return;
    request.log.warn({ host: server.smtpHost, port: server.smtpPort, kind: target.kind, detail: target.detail }, 'settings.smtp_refused');
    if (target.kind === 'port_not_allowed') throw new AppError('VALIDATION', formatMessage(s.smtpPortNotAllowed, { ports: options.smtpAllowedPorts.join(', ') }));
    if (target.kind === 'address_not_allowed') throw new AppError('VALIDATION', s.smtpAddressNotAllowed);
  }

  async function present(row: SettingsRow): Promise<PlatformSettings> {
    const { smtpPasswordEncrypted, id: _id, updatedBy: _by, createdAt: _at, updatedAt, ...fields } = row;
    return {
      ...fields,
      smtpPasswordSet: smtpPasswordEncrypted !== null,
      mainDomain: options.mainDomain,
      lastBackup: await backups.latest(),
      demoSeed: options.demoSeed,
      googleAvailable: options.googleAvailable,
      updatedAt: updatedAt.toISOString(),
    };
  }

  app.get(
    '/api/admin/settings',
    { config: admin, schema: { tags: ['admin'], summary: 'Configurações da plataforma', response: { 200: platformSettingsSchema, ...errors } } },
    async () => present(await settings.get()),
  );

  app.put(
    '/api/admin/settings',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Salva as configurações', body: platformSettingsFormSchema, response: { 200: platformSettingsSchema, ...errors } },
    },
    async (request) => {
      const ctx = requireContext(request);
      await checkSmtpServer(request, request.body);
      if (needsReauthentication(await settings.get(), request.body)) await confirmPassword(request, request.body.currentPassword);
      return present(await settings.save(request.body, ctx.userId));
    },
  );

  app.post(
    '/api/admin/settings/smtp-test',
    {
      config: admin,
      schema: { tags: ['admin'], summary: 'Testa a conexão SMTP', body: smtpTestSchema, response: { 200: smtpTestResultSchema, ...errors } },
    },
    async (request) => {
      const { smtpHost, smtpPort, smtpUser, smtpPassword } = request.body;
      if (!smtpHost) throw new AppError('VALIDATION', s.smtpHostRequired);
      // An empty password field means "the one already saved", but only for the saved server and user: the stored
      // secret is never sent to a host an admin just typed.
      const saved = await settings.get();
      const sameServer = saved.smtpHost === smtpHost && saved.smtpPort === smtpPort && saved.smtpUser === smtpUser;
      const password = smtpPassword ?? (sameServer ? settings.smtpPassword(saved) : null);
      const result = await verifySmtp({ host: smtpHost, port: smtpPort, user: smtpUser, password }, options.smtpAllowedPorts);
      if (result.ok) {
        request.log.info({ host: smtpHost, port: smtpPort, ok: true }, 'smtp.test');
        return { ok: true, message: s.smtpTestOk };
      }
      // The resolver's or the server's own words stay in the log: shown to the user they would map the network.
      request.log.warn({ host: smtpHost, port: smtpPort, ok: false, kind: result.kind, detail: result.detail }, 'smtp.test');
      return { ok: false, message: smtpFailureMessage(result.kind, options.smtpAllowedPorts) };
    },
  );

  app.post(
    '/api/admin/backups',
    { config: admin, schema: { tags: ['admin'], summary: 'Faz um backup agora', response: { 201: backupInfoSchema, ...errors } } },
    async (request, reply) => {
      try {
        const backup = await backups.backupNow();
        request.log.info({ file: backup.fileName, bytes: backup.sizeBytes, by: requireContext(request).userId }, 'backup.manual');
        return reply.status(201).send(backup);
      } catch (error) {
        // The reason stays in the log: a pg_dump failure may quote its command line. A version mismatch is the one
        // cause the admin can pass on as it is: the fix is a newer pg_dump on the server.
        request.log.error({ err: error }, error instanceof PgDumpVersionMismatchError ? error.message : 'backup failed');
        throw new AppError('SERVICE_UNAVAILABLE', backupFailureMessage(error));
      }
    },
  );
};
