import { and, count, eq, gte, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import type { RenderedEmail } from './email-templates.ts';
import { LOOPBACK_HOSTS, resolveSmtpTarget, smtpFailureKindOf, type Lookup, type SmtpFailureKind, type SmtpTarget } from './smtp-target.ts';

export type Mailer = {
  /** Sends (or, without SMTP, keeps in the development outbox) one e-mail; every e-mail is recorded. */
  send: (to: string, email: RenderedEmail) => Promise<void>;
};

/** An SMTP server as typed in admin Configurações. */
export type SmtpServer = { host: string; port: number; user: string | null; password: string | null };

/** Where e-mail goes right now: an SMTP server (from the settings, else SMTP_URL) or nowhere (the outbox). */
export type SmtpRoute = { server: SmtpServer | string; from: string | { name: string; address: string } } | null;

type MailerOptions = {
  db: Database;
  /** Asked on every send, so a change in Configurações applies to the next e-mail. */
  route: () => Promise<SmtpRoute>;
  log: FastifyBaseLogger;
  /**
   * Whether to print outbox e-mails (links included) to the log, so a developer can follow a link without SMTP. Only
   * LOG_OUTBOX_EMAILS turns it on: the links are passwords for a while, and logs travel further than the database.
   */
  logOutbox: boolean;
  /** Ports a Configurações SMTP server may use (SMTP_ALLOWED_PORTS). */
  smtpAllowedPorts: readonly number[];
};

const SMTP_TIMEOUT_MS = 10_000;

/**
 * How long the outbox keeps a record of an e-mail. Long enough to answer "did it go?" and to count mail per
 * recipient; short enough that the table never becomes an archive of people's addresses and links.
 */
export const OUTBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

const LINK = /https?:\/\/[^\s"'<>]+/g;

/**
 * The copy of a delivered e-mail that the admin outbox keeps: every link (reset, verification and invitation links
 * carry a token that signs in) is replaced, so reading the outbox never hands an admin a way into someone's account.
 */
export function redactLinks(email: RenderedEmail): RenderedEmail {
  const redact = (body: string) => body.replace(LINK, messages.email.linkRedacted);
  return { subject: email.subject, html: redact(email.html), text: redact(email.text) };
}

/** How many of these e-mails (by subject) went to this address since then: the per-recipient limits count here. */
export async function mailCountSince(db: Database, to: string, subjects: string[], since: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.to, to), inArray(emailOutbox.subject, subjects), gte(emailOutbox.createdAt, since)));
  return row?.total ?? 0;
}

/** Forgets e-mails older than the retention; run on every write, so no job is needed (served by the created index). */
async function purgeExpired(db: Database): Promise<void> {
  await db.delete(emailOutbox).where(lt(emailOutbox.createdAt, new Date(Date.now() - OUTBOX_RETENTION_MS)));
}

/**
 * A nodemailer transport for a server (SMTP_URL, the operator's own, as given). Port 465 speaks TLS from the start;
 * the others must upgrade with STARTTLS (requireTLS), so the password never crosses the network in clear. Only a
 * relay on this very machine may do without, as a local postfix commonly does. A Configurações server is reached at
 * the address `resolveSmtpTarget` checked, with its typed name for the certificate.
 */
export function smtpTransport(server: SmtpServer | string, target?: SmtpTarget): Transporter {
  if (typeof server === 'string') return nodemailer.createTransport(server);
  const secure = server.port === 465;
  return nodemailer.createTransport({
    host: target?.address ?? server.host,
    port: server.port,
    secure,
    tls: target?.servername ? { servername: target.servername } : undefined,
    requireTLS: !secure && !LOOPBACK_HOSTS.has(server.host),
    auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
}

export type SmtpCheck = { ok: true } | { ok: false; kind: SmtpFailureKind; detail: string };

/**
 * 'Testar Conexão': checks the port and the resolved address, then connects to that address, greets and
 * authenticates. A failure says its kind (for a pt-BR message) and the detail (for the log only).
 */
export async function verifySmtp(server: SmtpServer, allowedPorts: readonly number[], lookup?: Lookup): Promise<SmtpCheck> {
  const resolved = await resolveSmtpTarget(server, allowedPorts, lookup);
  if (!resolved.ok) return resolved;
  const transport = smtpTransport(server, resolved.target);
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, kind: smtpFailureKindOf(error), detail: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}

/** An SMTP server from Configurações that the address rules refuse at send time (its DNS changed since it was saved). */
export class SmtpTargetRefusedError extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    detail: string,
  ) {
    super(`SMTP server refused (${kind}): ${detail}`);
    this.name = 'SmtpTargetRefusedError';
  }
}

/** E-mail goes through nodemailer when SMTP is configured and otherwise to the outbox table (DESIGN.md §3). */
export function createMailer(options: MailerOptions): Mailer {
  // One pooled transport per server configuration; a changed setting gets a new one.
  let current: { key: string; transport: Transporter } | null = null;

  function transportFor(server: SmtpServer | string, target?: SmtpTarget): Transporter {
    const key = JSON.stringify([server, target]);
    if (current?.key !== key) {
      current?.transport.close();
      current = { key, transport: smtpTransport(server, target) };
    }
    return current.transport;
  }

  /** The address to reach a Configurações server at, checked on every send like 'Testar Conexão' checks it. */
  async function targetOf(server: SmtpServer | string): Promise<SmtpTarget | undefined> {
    if (typeof server === 'string') return undefined;
    const resolved = await resolveSmtpTarget(server, options.smtpAllowedPorts);
    if (!resolved.ok) throw new SmtpTargetRefusedError(resolved.kind, resolved.detail);
    return resolved.target;
  }

  return {
    async send(to, email) {
      const route = await options.route();
      await purgeExpired(options.db);
      if (!route) {
        // Without SMTP the outbox is how a developer follows a link: the body stays readable until it expires.
        await options.db.insert(emailOutbox).values({ to, ...email, transport: 'outbox' });
        if (options.logOutbox) options.log.info({ to, subject: email.subject }, `E-mail na caixa de saída de desenvolvimento:\n${email.text}`);
        else options.log.info({ subject: email.subject }, 'e-mail kept in the development outbox');
        return;
      }
      try {
        await transportFor(route.server, await targetOf(route.server)).sendMail({ from: route.from, to, subject: email.subject, html: email.html, text: email.text });
        await options.db.insert(emailOutbox).values({ to, ...redactLinks(email), transport: 'smtp', sentAt: new Date() });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        // A link that did not go out is still live: the record of the failure does not keep it either.
        await options.db.insert(emailOutbox).values({ to, ...redactLinks(email), transport: 'smtp', error: reason });
        options.log.error({ subject: email.subject, reason }, 'SMTP delivery failed');
        throw error;
      }
    },
  };
}
