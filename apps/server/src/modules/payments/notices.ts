import { eq } from 'drizzle-orm';
import { formatDate, formatMoney, ofPlan } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { BackgroundTasks } from '../../lib/background.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AccountHome } from '../auth/account-home.ts';

const m = messages.paymentNotices;

/**
 * An e-mail to the patient about a charge, decided inside a transaction and sent only after it commits (a rolled
 * back settlement must not have told anyone it was paid).
 */
export type PaymentNotice =
  | { kind: 'confirmed'; userId: string; planName: string; amountCents: number; expiresAt: Date | null; benefitsStartAt: Date | null; now: Date }
  | { kind: 'reminderBefore' | 'reminderDue'; userId: string; planName: string; amountCents: number; dueDate: string }
  | { kind: 'overdue'; userId: string; planName: string; amountCents: number; dueDate: string; benefitsUntil: Date | null }
  | { kind: 'suspended'; userId: string; planName: string; amountCents: number; dueDate: string }
  /** A charge paid after the subscription was cancelled, refunded automatically (provider-work.ts). */
  | { kind: 'refundedAfterCancellation'; userId: string; planName: string; amountCents: number };

export type NoticeMail = { db: Database; mailer: Mailer; background: BackgroundTasks; homeOf: (userId: string) => Promise<AccountHome> };

/** Sends notices; a function so the plain job functions can be tested with a recorder instead. */
export type Notify = (notices: PaymentNotice[]) => void;

/** A due date (yyyy-MM-dd) as the patient reads it: the São Paulo day, dd/MM/yyyy. */
function dayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

function introOf(notice: PaymentNotice): { subject: string; intro: string } {
  const base = { amount: formatMoney(notice.amountCents), ofPlan: ofPlan(notice.planName) };
  switch (notice.kind) {
    case 'confirmed': {
      const until = notice.expiresAt ? formatDate(notice.expiresAt) : '—';
      const waiting = notice.benefitsStartAt && notice.benefitsStartAt > notice.now ? ` ${formatMessage(m.confirmedWaiting, { date: formatDate(notice.benefitsStartAt) })}` : '';
      return { subject: m.confirmedSubject, intro: `${formatMessage(m.confirmedIntro, { ...base, until })}${waiting}` };
    }
    case 'reminderBefore':
      return { subject: m.reminderBeforeSubject, intro: formatMessage(m.reminderBeforeIntro, { ...base, date: dayText(notice.dueDate) }) };
    case 'reminderDue':
      return { subject: m.reminderDueSubject, intro: formatMessage(m.reminderDueIntro, { ...base, date: dayText(notice.dueDate) }) };
    case 'overdue':
      return {
        subject: m.overdueSubject,
        intro: notice.benefitsUntil
          ? formatMessage(m.overdueIntro, { ...base, date: dayText(notice.dueDate), until: formatDate(notice.benefitsUntil) })
          : formatMessage(m.overdueIntroNoBenefits, { ...base, date: dayText(notice.dueDate) }),
      };
    case 'suspended':
      return { subject: m.suspendedSubject, intro: formatMessage(m.suspendedIntro, { ...base, date: dayText(notice.dueDate) }) };
    case 'refundedAfterCancellation':
      return { subject: m.refundedAfterCancellationSubject, intro: formatMessage(m.refundedAfterCancellationIntro, base) };
  }
}

export function renderPaymentNotice(notice: PaymentNotice, home: AccountHome): RenderedEmail {
  const { subject, intro } = introOf(notice);
  return renderActionEmail({
    subject,
    brandName: home.name,
    brandColor: home.color,
    intro,
    actionLabel: m.action,
    actionUrl: `${home.baseUrl}/paciente/assinatura`,
    footer: m.footer,
  });
}

async function sendNotice(mail: NoticeMail, notice: PaymentNotice): Promise<void> {
  const [user] = await mail.db.select({ email: users.email }).from(users).where(eq(users.id, notice.userId)).limit(1);
  if (!user) return;
  await mail.mailer.send(user.email, renderPaymentNotice(notice, await mail.homeOf(notice.userId)));
}

/** The real notifier: each e-mail in the background (links from the account's home, never a request's Host). */
export function createNotify(mail: NoticeMail): Notify {
  return (notices) => {
    for (const notice of notices) mail.background.run(sendNotice(mail, notice), `payment notice ${notice.kind}`);
  };
}
