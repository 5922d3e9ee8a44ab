/**
 * The e-mails anyone can have sent to an address by typing it in a form — the password reset, the address's
 * confirmation, "someone tried to sign up with your address", "your account is under attack" — as durable jobs of
 * one queue, 'account-mail' (ADR 012). A request never looks the address up to decide what to send: it writes the
 * same job whatever the address (for an unknown one, a decoy the job finds nothing for), so the known and the unknown
 * address make the same statements and enqueue the same work (issue 22; issue 12 item 9). The job looks the account
 * up, makes the link (a reset token, a confirmation token) and sends, at most AUTH_MAIL_PER_RECIPIENT_PER_HOUR an hour
 * to one address, retried while the SMTP server is down.
 */
import { eq } from 'drizzle-orm';
import { createEmailVerificationToken } from 'better-auth/api';
import { generateRandomString } from 'better-auth/crypto';
import { z } from 'zod';
import { EMAIL_CONFIRMED_PARAM } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { users, verifications } from '../../db/schema.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import { mailCountSince, type Mailer } from '../../lib/mailer.ts';
import { exponentialBackoff } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import type { AccountHome } from './account-home.ts';

export const ACCOUNT_MAIL_QUEUE = 'account-mail';

/**
 * E-mails anyone can have sent to any address by typing it in a form: at most this many per address per hour,
 * counted in the outbox, so the platform cannot be used to flood a mailbox. Past it the form still answers as usual
 * (the answer must not tell that the address exists).
 */
export const AUTH_MAIL_PER_RECIPIENT_PER_HOUR = 5;
const AUTH_MAIL_SUBJECTS = [messages.email.resetSubject, messages.email.verifySubject, messages.email.signUpAttemptSubject, messages.email.changeEmailSubject];
const HOUR_MS = 60 * 60 * 1000;
/** better-auth's own lifetimes (auth.ts): a reset link lasts an hour, a confirmation link a day. */
export const RESET_TOKEN_SECONDS = 60 * 60;
export const VERIFICATION_TOKEN_SECONDS = 24 * 60 * 60;

export const accountMailSchema = z.discriminatedUnion('kind', [
  /** 'Esqueci minha senha': by the address typed, known or not (the job finds out). */
  z.object({ kind: z.literal('passwordReset'), email: z.string() }),
  /** A new account's address to confirm. */
  z.object({ kind: z.literal('verifyEmail'), userId: z.uuid() }),
  /**
   * Meu Perfil's new address to confirm (better-auth's change-email): the link goes to the new address and the e-mail
   * changes only when it is opened there.
   */
  z.object({ kind: z.literal('changeEmail'), userId: z.uuid(), newEmail: z.string() }),
  /** A sign-up with an address that has an account: its owner is told, nothing else happens. */
  z.object({ kind: z.literal('signUpAttempt'), userId: z.uuid() }),
  /** The account's failed sign-ins reached the hourly ceiling (by the address typed, known or not). */
  z.object({ kind: z.literal('signInCeiling'), email: z.string() }),
]);
export type AccountMail = z.infer<typeof accountMailSchema>;

export type AccountMailQueue = Pick<JobRunner, 'enqueue' | 'kick'>;

/**
 * Writes the e-mail's job (in `tx` when given, so that it exists exactly when the change that asked for it does).
 * Without a transaction the runner is told at once: the person is waiting for the link, not for the next poll. Known
 * and unknown addresses do this alike.
 */
export async function enqueueAccountMail(jobs: AccountMailQueue, mail: AccountMail, tx?: Database): Promise<void> {
  await jobs.enqueue(ACCOUNT_MAIL_QUEUE, mail, tx ? { tx } : {});
  if (!tx) jobs.kick();
}

type Account = { id: string; email: string; name: string; emailVerified: boolean };

// Mail to an address nobody has proven quotes nothing the person typed (issue 12, item 12): no name.
function verificationEmail(brand: AccountHome, url: string): RenderedEmail {
  return renderActionEmail({
    subject: messages.email.verifySubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: messages.email.verifyIntro,
    actionLabel: messages.email.verifyAction,
    actionUrl: url,
    footer: messages.email.ignore,
  });
}

function changeEmailEmail(brand: AccountHome, url: string): RenderedEmail {
  return renderActionEmail({
    subject: messages.email.changeEmailSubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: messages.email.changeEmailIntro,
    actionLabel: messages.email.changeEmailAction,
    actionUrl: url,
    footer: messages.email.ignore,
  });
}

function resetEmail(brand: AccountHome, account: Account, url: string): RenderedEmail {
  return renderActionEmail({
    subject: messages.email.resetSubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: account.emailVerified ? formatMessage(messages.email.resetIntro, { name: account.name }) : messages.email.resetIntroUnverified,
    actionLabel: messages.email.resetAction,
    actionUrl: url,
    footer: messages.email.ignore,
  });
}

function signUpAttemptEmail(brand: AccountHome): RenderedEmail {
  return renderActionEmail({
    subject: messages.email.signUpAttemptSubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: messages.email.signUpAttemptIntro,
    actionLabel: messages.email.signUpAttemptAction,
    actionUrl: `${brand.baseUrl}/auth`,
    footer: messages.email.signUpAttemptFooter,
  });
}

/**
 * The e-mail to an account's owner when its failed sign-ins reach the hourly ceiling (security checklist §7 item 2).
 * The text quotes nothing a person typed: the account may be someone's sign-up with another person's address. Its
 * link leads to the account's own sign-in page, like every e-mail to an account (issue 12, item 2).
 */
function signInCeilingEmail(brand: AccountHome): RenderedEmail {
  return renderActionEmail({
    subject: messages.email.signInCeilingSubject,
    brandName: brand.name,
    brandColor: brand.color,
    intro: messages.email.signInCeilingIntro,
    actionLabel: messages.email.signInCeilingAction,
    actionUrl: `${brand.baseUrl}/auth`,
    footer: messages.email.signInCeilingFooter,
  });
}

export type AccountMailDeps = {
  db: Database;
  mailer: Mailer;
  homeOf: (userId: string) => Promise<AccountHome>;
  log: JobLog;
  /** The auth secret: confirmation tokens are signed with it, as better-auth signs its own. */
  secret: string;
};

/**
 * The wall clock, not the app's: better-auth checks a reset token's expiry against its own `new Date()`, and the
 * outbox dates its rows with the database's now(), which the hourly share is counted against.
 */
function wallClock(): Date {
  return new Date();
}

async function accountBy(db: Database, where: { email: string } | { userId: string }): Promise<Account | null> {
  const condition = 'email' in where ? eq(users.email, where.email.trim().toLowerCase()) : eq(users.id, where.userId);
  const [row] = await db.select({ id: users.id, email: users.email, name: users.name, emailVerified: users.emailVerified }).from(users).where(condition).limit(1);
  return row ?? null;
}

/** A reset link as better-auth's own request-password-reset makes it: a verification row its reset endpoint reads. */
async function resetLinkOf(deps: AccountMailDeps, account: Account, brand: AccountHome): Promise<string> {
  const token = generateRandomString(24, 'a-z', 'A-Z', '0-9');
  await deps.db.insert(verifications).values({
    identifier: `reset-password:${token}`,
    value: account.id,
    expiresAt: new Date(wallClock().getTime() + RESET_TOKEN_SECONDS * 1000),
  });
  return `${brand.baseUrl}/auth/redefinir-senha?token=${encodeURIComponent(token)}`;
}

/**
 * The confirmation link: better-auth's own token (signed with the auth secret, a day long), which its verify-email
 * endpoint checks. It leads to the site root with a marker, so the site says the address is confirmed; verification
 * signs nobody in (auth.ts).
 */
async function verificationLinkOf(deps: AccountMailDeps, account: Account, brand: AccountHome): Promise<string> {
  const token = await createEmailVerificationToken(deps.secret, account.email, undefined, VERIFICATION_TOKEN_SECONDS, { userId: account.id });
  const landing = `/?${EMAIL_CONFIRMED_PARAM}=1`;
  return `${brand.baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(landing)}`;
}

/**
 * The link that moves the account to `newEmail`: better-auth's own change-email token (as its change-email endpoint
 * makes it when no confirmation by the old address is configured), which its verify-email endpoint applies. It lands
 * on Meu Perfil, on the account's own host.
 */
async function changeEmailLinkOf(deps: AccountMailDeps, account: Account, newEmail: string, brand: AccountHome): Promise<string> {
  const token = await createEmailVerificationToken(deps.secret, account.email, newEmail, VERIFICATION_TOKEN_SECONDS, { requestType: 'change-email-verification', userId: account.id });
  return `${brand.baseUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(CHANGED_EMAIL_LANDING)}`;
}

/** Where the confirmed new address lands: the patient's profile, which then shows it. */
const CHANGED_EMAIL_LANDING = '/paciente/perfil';

/** What to send to whom, or null: the decoy of an unknown address, an address already confirmed. */
async function emailOf(deps: AccountMailDeps, mail: AccountMail): Promise<{ to: Account; email: RenderedEmail } | null> {
  switch (mail.kind) {
    case 'passwordReset': {
      const account = await accountBy(deps.db, { email: mail.email });
      if (!account) return null;
      const brand = await deps.homeOf(account.id);
      return { to: account, email: resetEmail(brand, account, await resetLinkOf(deps, account, brand)) };
    }
    case 'verifyEmail': {
      const account = await accountBy(deps.db, { userId: mail.userId });
      if (!account || account.emailVerified) return null;
      const brand = await deps.homeOf(account.id);
      return { to: account, email: verificationEmail(brand, await verificationLinkOf(deps, account, brand)) };
    }
    case 'changeEmail': {
      const account = await accountBy(deps.db, { userId: mail.userId });
      if (!account || account.email === mail.newEmail) return null;
      const brand = await deps.homeOf(account.id);
      return { to: { ...account, email: mail.newEmail }, email: changeEmailEmail(brand, await changeEmailLinkOf(deps, account, mail.newEmail, brand)) };
    }
    case 'signUpAttempt': {
      const account = await accountBy(deps.db, { userId: mail.userId });
      return account ? { to: account, email: signUpAttemptEmail(await deps.homeOf(account.id)) } : null;
    }
    case 'signInCeiling': {
      // Failures are counted for any address typed: nothing is sent for one with no account.
      const account = await accountBy(deps.db, { email: mail.email });
      return account ? { to: account, email: signInCeilingEmail(await deps.homeOf(account.id)) } : null;
    }
  }
}

/** Past its hourly share an address gets nothing more (the ceiling notice is not one anyone can ask for by a form). */
async function withinHourlyShare(deps: AccountMailDeps, mail: AccountMail, to: Account): Promise<boolean> {
  if (mail.kind === 'signInCeiling') return true;
  const since = new Date(wallClock().getTime() - HOUR_MS);
  return (await mailCountSince(deps.db, to.email, AUTH_MAIL_SUBJECTS, since)) < AUTH_MAIL_PER_RECIPIENT_PER_HOUR;
}

/** An SMTP server that is down for a while: 1 min, 2 min … then every 30 min, for a few hours (a reset link lasts one). */
const ACCOUNT_MAIL_RETRIES = { maxAttempts: 10, backoff: exponentialBackoff({ baseMs: 60_000, maxMs: 30 * 60_000 }) };

/**
 * The auth module's queue. One at a time per process: an address's e-mails go one after another, so that the count
 * of the last hour includes the one before (another process keeps its own: with N processes an address could get
 * N - 1 more in a burst, still bounded).
 */
export function registerAccountMail(runner: JobRunner, deps: AccountMailDeps): void {
  runner.register(
    ACCOUNT_MAIL_QUEUE,
    async (job) => {
      const mail = accountMailSchema.parse(job.payload);
      const found = await emailOf(deps, mail);
      // The decoy: an address with no account (or nothing left to send) is where it ends, as quietly as it began.
      if (!found) return;
      if (!(await withinHourlyShare(deps, mail, found.to))) {
        deps.log.warn({ userId: found.to.id, kind: mail.kind }, 'auth.mail.recipient_limit');
        return;
      }
      await deps.mailer.send(found.to.email, found.email);
    },
    { concurrency: 1, ...ACCOUNT_MAIL_RETRIES },
  );
}
