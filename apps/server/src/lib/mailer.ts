import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database } from '../db/client.ts';
import { emailOutbox } from '../db/schema.ts';
import type { RenderedEmail } from './email-templates.ts';

export type Mailer = {
  /** Sends (or, without SMTP, keeps in the development outbox) one e-mail; every e-mail is recorded. */
  send: (to: string, email: RenderedEmail) => Promise<void>;
};

type MailerOptions = {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  /** Whether to print outbox e-mails to the log, so a developer can follow a link without SMTP. */
  logOutbox: boolean;
};

/** E-mail goes through nodemailer when SMTP is configured and otherwise to the outbox table (DESIGN.md §3). */
export function createMailer(options: MailerOptions): Mailer {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;

  return {
    async send(to, email) {
      if (!transport) {
        await options.db.insert(emailOutbox).values({ to, ...email, transport: 'outbox' });
        if (options.logOutbox) options.log.info({ to, subject: email.subject }, `E-mail na caixa de saída de desenvolvimento:\n${email.text}`);
        else options.log.info({ subject: email.subject }, 'e-mail kept in the development outbox');
        return;
      }
      try {
        await transport.sendMail({ from: options.from, to, subject: email.subject, html: email.html, text: email.text });
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
