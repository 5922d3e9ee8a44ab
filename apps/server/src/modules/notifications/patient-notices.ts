/**
 * What a patient is told about their subscription, its charges and their visits: payment confirmed, reminders,
 * overdue, benefits suspended, an automatic refund, the cancellation receipt, a visit registered, the subscription
 * about to end. Each is a durable job of the 'patient-notices' queue, written in the transaction that decided it (a
 * rolled-back settlement tells nobody it was paid), and carries the account's home (brand and links are the
 * clinic's, never a request's Host).
 *
 * The channel (issue 29): a notice of PUSHED_KINDS goes by Web Push to every browser on which the patient turned
 * notifications on, and by e-mail instead when there is none (or none is left: push/deliveries.ts). The receipts —
 * suspension, refund, cancellation — are records the patient keeps, and always go by e-mail.
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { PushMessage } from '@carteirinha/shared/contracts/push';
import { formatDate, formatDateTime, formatMoney, ofPlan } from '@carteirinha/shared/format';
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
import type { Job, JobLog, JobRunner } from '../jobs/runner.ts';
import { handToBrowsers, type PushDeliveryDeps } from '../push/deliveries.ts';
import { PATIENT_NOTICE_QUEUE, patientNoticeSchema } from '../subscriptions/follow-ups.ts';

const m = messages.paymentNotices;
const c = messages.cancellation;
const p = messages.push;

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
    case 'visitRegistered':
      return {
        subject: m.visitRegisteredSubject,
        intro: formatMessage(m.visitRegisteredIntro, { ...visitValues(notice), date: formatDateTime(notice.performedAt) }),
        actionLabel: m.visitAction,
        footer: m.footer,
      };
    case 'subscriptionEnding':
      return paymentMail(m.subscriptionEndingSubject, formatMessage(m.subscriptionEndingIntro, { ofPlan: ofPlan(notice.planName), date: formatDate(notice.endsAt) }));
  }
}

function visitValues(notice: Extract<Notice, { kind: 'visitRegistered' }>) {
  return {
    person: notice.person,
    service: notice.serviceName,
    final: formatMoney(notice.amountCents),
    original: formatMoney(notice.originalCents),
    discount: `${notice.discountPercent.toLocaleString('pt-BR')}%`,
  };
}

/** The patient portal's page a notice is about: its history for a visit, the subscription for the rest. */
function pageOf(notice: Notice): string {
  return notice.kind === 'visitRegistered' ? '/paciente/historico' : '/paciente/assinatura';
}

export function renderPatientNotice(notice: Notice, home: AccountHome): RenderedEmail {
  const { subject, intro, actionLabel, footer } = introOf(notice);
  return renderActionEmail({ subject, brandName: home.name, brandColor: home.color, intro, actionLabel, actionUrl: `${home.baseUrl}${pageOf(notice)}`, footer });
}

type PushedNotice = Extract<Notice, { kind: 'confirmed' | 'reminderBefore' | 'reminderDue' | 'overdue' | 'visitRegistered' | 'subscriptionEnding' }>;

/** The notices that go by push when the patient turned notifications on; the receipts always go by e-mail. */
function isPushed(notice: Notice): notice is PushedNotice {
  switch (notice.kind) {
    case 'confirmed':
    case 'reminderBefore':
    case 'reminderDue':
    case 'overdue':
    case 'visitRegistered':
    case 'subscriptionEnding':
      return true;
    case 'suspended':
    case 'refundedAfterCancellation':
    case 'cancellationReceipt':
      return false;
  }
}

function pushTextOf(notice: PushedNotice): string {
  const amount = formatMoney(notice.amountCents);
  switch (notice.kind) {
    case 'confirmed':
      return formatMessage(p.confirmed, { amount, ofPlan: ofPlan(notice.planName), until: notice.expiresAt ? formatDate(notice.expiresAt) : '—' });
    case 'reminderBefore':
      return formatMessage(p.reminderBefore, { amount, date: dayText(notice.dueDate) });
    case 'reminderDue':
      return formatMessage(p.reminderDue, { amount });
    case 'overdue':
      return formatMessage(p.overdue, { amount, date: dayText(notice.dueDate) });
    case 'visitRegistered':
      return formatMessage(p.visitRegistered, visitValues(notice));
    case 'subscriptionEnding':
      return formatMessage(p.subscriptionEnding, { ofPlan: ofPlan(notice.planName), date: formatDate(notice.endsAt) });
  }
}

/**
 * The notification as the device shows it: the clinic's name as its title (never the platform's), the text, and the
 * clinic's own page the click opens. The tag lets a newer notice of the same charge or visit replace an older one.
 */
export function pushMessageOf(notice: PushedNotice, home: AccountHome): PushMessage {
  return { title: home.name, body: pushTextOf(notice), url: `${home.baseUrl}${pageOf(notice)}`, tag: notice.kind };
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

export type PatientNoticeDeps = { db: Database; mailer: Mailer; homeOf: (userId: string) => Promise<AccountHome>; log: JobLog; push: PushDeliveryDeps };

/** Set on the e-mail a push notice falls back to (no browser left to take it): it goes by e-mail, whatever its kind. */
const channelSchema = z.object({ channel: z.literal('email').optional() });

/** By push when the patient has browsers for it: answers whether it was handed to them (false: e-mail it). */
async function handedToBrowsers(deps: PatientNoticeDeps, job: Job, notice: Notice, home: AccountHome): Promise<boolean> {
  if (!isPushed(notice) || channelSchema.parse(job.payload).channel === 'email') return false;
  const fallback = { queue: PATIENT_NOTICE_QUEUE, payload: { ...job.payload, channel: 'email' }, key: `email:${job.id}` };
  const browsers = await handToBrowsers(deps.push, { noticeKey: job.id, userId: notice.userId, message: pushMessageOf(notice, home), fallback });
  return browsers > 0;
}

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
      const home = await deps.homeOf(notice.userId);
      if (await handedToBrowsers(deps, job, notice, home)) return;
      await deps.mailer.send(user.email, renderPatientNotice(notice, home));
    },
    NOTICE_RETRIES,
  );
}
