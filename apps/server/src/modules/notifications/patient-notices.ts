/**
 * The e-mails a patient gets about their subscription and its charges: payment confirmed, reminders, overdue, benefits
 * suspended, an automatic refund, the cancellation receipt. Each is a durable job of the 'patient-notices' queue,
 * written in the transaction that decided it (a rolled-back settlement tells nobody it was paid), retried while the
 * SMTP server is down, and sent from the account's home (links and brand are the clinic's, never a request's Host).
 */
import { eq } from 'drizzle-orm';
import { formatDate, formatMoney, ofPlan } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { isTombstoneAddress } from '../../lib/tombstone.ts';
import type { ClinicNotification } from '@carteirinha/shared/contracts/clinics';
import type { AccountHome } from '../auth/account-home.ts';
import { clinicSendsToPatient } from '../clinics/clinic-settings.ts';
import { exponentialBackoff } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { PATIENT_NOTICE_QUEUE, patientNoticeSchema } from '../subscriptions/follow-ups.ts';
import type { z } from 'zod';

const m = messages.paymentNotices;
const c = messages.cancellation;

type Notice = z.output<typeof patientNoticeSchema>;

/** A due date (yyyy-MM-dd) as the patient reads it: the São Paulo day, dd/MM/yyyy. */
function dayText(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

function introOf(notice: Notice): { subject: string; intro: string; actionLabel: string; footer: string } {
  const base = { amount: formatMoney(notice.amountCents), ofPlan: ofPlan(notice.planName) };
  const paymentMail = (subject: string, intro: string) => ({ subject, intro, actionLabel: m.action, footer: m.footer });
  switch (notice.kind) {
    case 'confirmed': {
      const until = notice.expiresAt ? formatDate(notice.expiresAt) : '—';
      const waiting = notice.benefitsStartAt && notice.benefitsStartAt > notice.now ? ` ${formatMessage(m.confirmedWaiting, { date: formatDate(notice.benefitsStartAt) })}` : '';
      return paymentMail(m.confirmedSubject, `${formatMessage(m.confirmedIntro, { ...base, until })}${waiting}`);
    }
    case 'reminderBefore':
      return paymentMail(m.reminderBeforeSubject, formatMessage(m.reminderBeforeIntro, { ...base, date: dayText(notice.dueDate) }));
    case 'reminderDue':
      return paymentMail(m.reminderDueSubject, formatMessage(m.reminderDueIntro, { ...base, date: dayText(notice.dueDate) }));
    case 'overdue':
      return paymentMail(
        m.overdueSubject,
        notice.benefitsUntil
          ? formatMessage(m.overdueIntro, { ...base, date: dayText(notice.dueDate), until: formatDate(notice.benefitsUntil) })
          : formatMessage(m.overdueIntroNoBenefits, { ...base, date: dayText(notice.dueDate) }),
      );
    case 'suspended':
      return paymentMail(m.suspendedSubject, formatMessage(m.suspendedIntro, { ...base, date: dayText(notice.dueDate) }));
    case 'refundedAfterCancellation':
      return paymentMail(m.refundedAfterCancellationSubject, formatMessage(m.refundedAfterCancellationIntro, base));
    case 'cancellationReceipt':
      return {
        subject: c.receiptSubject,
        intro: formatMessage(c.receiptIntro, {
          ofPlan: ofPlan(notice.planName),
          date: formatDate(notice.canceledAt),
          protocol: notice.protocol,
          refund: formatMoney(notice.refundCents),
          until: notice.benefitsUntil ? formatDate(notice.benefitsUntil) : c.receiptBenefitsEnded,
        }),
        actionLabel: c.receiptAction,
        footer: c.receiptFooter,
      };
  }
}

export function renderPatientNotice(notice: Notice, home: AccountHome): RenderedEmail {
  const { subject, intro, actionLabel, footer } = introOf(notice);
  return renderActionEmail({ subject, brandName: home.name, brandColor: home.color, intro, actionLabel, actionUrl: `${home.baseUrl}/paciente/assinatura`, footer });
}

/** The Configurações switch that turns a notice off; the others (suspension, refund, cancellation) always go. */
const SWITCH_OF_NOTICE: Partial<Record<Notice['kind'], ClinicNotification>> = {
  confirmed: 'paymentConfirmed',
  reminderBefore: 'reminderBefore',
  reminderDue: 'reminderDue',
  overdue: 'overdue',
};

/** Whether the patient's clinic sends this notice: read when it is sent, so a switch turned off stops queued ones too. */
async function clinicSends(db: Database, notice: Notice): Promise<boolean> {
  const notification = SWITCH_OF_NOTICE[notice.kind];
  return notification === undefined || clinicSendsToPatient(db, notice.userId, notification);
}

export type PatientNoticeDeps = { db: Database; mailer: Mailer; homeOf: (userId: string) => Promise<AccountHome>; log: JobLog };

/** An SMTP server that is down for a while: 1 min, 2 min … then hourly, for about a day. */
const NOTICE_RETRIES = { concurrency: 2, maxAttempts: 30, backoff: exponentialBackoff({ baseMs: 60_000, maxMs: 60 * 60_000 }) };

/** The notifications module's queue of patient e-mails (the lifecycle's and the payments module's follow-ups). */
export function registerPatientNotices(runner: JobRunner, deps: PatientNoticeDeps): void {
  runner.register(
    PATIENT_NOTICE_QUEUE,
    async (job) => {
      const notice = patientNoticeSchema.parse(job.payload);
      const [user] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, notice.userId)).limit(1);
      // A deleted account's tombstone address receives nothing (ADR 027); what the patient needed was on the screen.
      if (!user || isTombstoneAddress(user.email)) return;
      if (!(await clinicSends(deps.db, notice))) {
        deps.log.info({ userId: notice.userId, kind: notice.kind }, 'patient notice turned off by the clinic');
        return;
      }
      await deps.mailer.send(user.email, renderPatientNotice(notice, await deps.homeOf(notice.userId)));
    },
    NOTICE_RETRIES,
  );
}
