import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import type { RenderedEmail } from './email-templates.ts';

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
  /** Whether to print outbox e-mails to the log, so a developer can follow a link without SMTP. */
  logOutbox: boolean;
};

const SMTP_TIMEOUT_MS = 10_000;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * A nodemailer transport for a server. Port 465 speaks TLS from the start; the others must upgrade with STARTTLS
 * (requireTLS), so the password never crosses the network in clear. Only a relay on this very machine may do
 * without, as a local postfix commonly does.
 */
export function smtpTransport(server: SmtpServer | string): Transporter {
  if (typeof server === 'string') return nodemailer.createTransport(server);
  const secure = server.port === 465;
  return nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure,
    requireTLS: !secure && !LOOPBACK_HOSTS.has(server.host),
    auth: server.user ? { user: server.user, pass: server.password ?? '' } : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
}

/** 'Testar Conexão': connects, greets and authenticates, and answers with the server's own reason on failure. */
export async function verifySmtp(server: SmtpServer): Promise<{ ok: true } | { ok: false; reason: string }> {
  const transport = smtpTransport(server);
  try {
    await transport.verify();
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    transport.close();
  }
}

/** E-mail goes through nodemailer when SMTP is configured and otherwise to the outbox table (DESIGN.md §3). */
export function createMailer(options: MailerOptions): Mailer {
  // One pooled transport per server configuration; a changed setting gets a new one.
  let current: { key: string; transport: Transporter } | null = null;

  function transportFor(server: SmtpServer | string): Transporter {
    const key = JSON.stringify(server);
    if (current?.key !== key) {
      current?.transport.close();
      current = { key, transport: smtpTransport(server) };
    }
    return current.transport;
  }

  return {
    async send(to, email) {
      const route = await options.route();
      if (!route) {
        await options.db.insert(emailOutbox).values({ to, ...email, transport: 'outbox' });
        if (options.logOutbox) options.log.info({ to, subject: email.subject }, `E-mail na caixa de saída de desenvolvimento:\n${email.text}`);
        else options.log.info({ subject: email.subject }, 'e-mail kept in the development outbox');
        return;
      }
      try {
        await transportFor(route.server).sendMail({ from: route.from, to, subject: email.subject, html: email.html, text: email.text });
        await options.db.insert(emailOutbox).values({ to, ...email, transport: 'smtp', sentAt: new Date() });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await options.db.insert(emailOutbox).values({ to, ...email, transport: 'smtp', error: reason });
        options.log.error({ subject: email.subject, reason }, 'SMTP delivery failed');
        throw error;
      }
    },
  };
}
