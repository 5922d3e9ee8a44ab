import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { platformSettings } from '../../db/schema.ts';
import { renderActionEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { lastOccurrence, type Schedule } from '../../lib/schedule.ts';
import { reportSummary } from '../reports/definitions.ts';
import type { SettingsStore } from './store.ts';

export type PlatformNotifier = {
  /** 'Novas clínicas': tells the support address that a clinic signed up and awaits approval. */
  clinicSignedUp: (clinic: { name: string }) => Promise<void>;
  /** 'Relatórios automáticos': the week's figures, once per week; answers whether this call sent it. */
  sendWeeklyReportIfDue: (now?: Date) => Promise<boolean>;
};

/** Mondays at 8 am (São Paulo), about the seven days before. */
export const WEEKLY_REPORT: Schedule = { hour: 8, weekday: 1 };
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const EVERY_MINUTE_MS = 60_000;


const PLATFORM_COLOR = '#0d9488';

/**
 * E-mails to the platform's own team, each behind its toggle in admin Configurações. A failed delivery is logged
 * and never fails the action that caused it (the clinic's sign-up must not depend on our SMTP server).
 */
export function createPlatformNotifier(options: {
  db: Database;
  settings: SettingsStore;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}): PlatformNotifier {
  const { db } = options;

  /**
   * Marks this week's report as sent if it is on and not sent yet, in one statement: with several server processes,
   * exactly one of them gets the row back and sends the e-mail.
   */
  async function claimWeeklyReport(due: Date, now: Date): Promise<boolean> {
    const claimed = await db
      .update(platformSettings)
      .set({ weeklyReportSentAt: now })
      .where(
        and(
          eq(platformSettings.id, 1),
          eq(platformSettings.notifyAutomaticReports, true),
          or(isNull(platformSettings.weeklyReportSentAt), lt(platformSettings.weeklyReportSentAt, due)),
        ),
      )
      .returning({ id: platformSettings.id });
    return claimed.length > 0;
  }

  return {
    async sendWeeklyReportIfDue(now = new Date()) {
      const due = lastOccurrence(now, WEEKLY_REPORT);
      const current = await options.settings.get();
      const previous = current.weeklyReportSentAt;
      if (!(await claimWeeklyReport(due, now))) return false;
      const weekStart = new Date(due.getTime() - WEEK_MS);
      const lastDay = new Date(due.getTime() - 1);
      const [week, total] = await Promise.all([
        reportSummary(db, { from: saoPauloDay(weekStart), to: saoPauloDay(lastDay) }),
        reportSummary(db, { from: undefined, to: undefined }),
      ]);
      const email = renderActionEmail({
        subject: formatMessage(messages.settings.weeklyReportSubject, { name: current.platformName }),
        brandName: current.platformName,
        brandColor: PLATFORM_COLOR,
        intro: formatMessage(messages.settings.weeklyReportIntro, {
          from: formatDate(weekStart),
          to: formatDate(lastDay),
          clinics: week.clinics,
          users: week.users,
          totalClinics: total.clinics,
          totalUsers: total.users,
          activePlans: total.activePlans,
        }),
        actionLabel: messages.settings.weeklyReportAction,
        actionUrl: `${options.publicUrl}/admin/relatorios`,
        footer: messages.settings.weeklyReportFooter,
      });
      try {
        await options.mailer.send(current.supportEmail, email);
      } catch (error) {
        // Give the claim back so the next tick tries again, rather than losing this week's report.
        await db.update(platformSettings).set({ weeklyReportSentAt: previous }).where(eq(platformSettings.id, 1));
        throw error;
      }
      return true;
    },

    async clinicSignedUp(clinic) {
      const current = await options.settings.get();
      if (!current.notifyNewClinics) return;
      const email = renderActionEmail({
        subject: formatMessage(messages.settings.newClinicSubject, { name: clinic.name }),
        brandName: current.platformName,
        brandColor: PLATFORM_COLOR,
        intro: formatMessage(messages.settings.newClinicIntro, { name: clinic.name }),
        actionLabel: messages.settings.newClinicAction,
        actionUrl: `${options.publicUrl}/admin`,
        footer: messages.settings.newClinicFooter,
      });
      await options.mailer.send(current.supportEmail, email).catch((error: unknown) => {
        options.log.error({ err: error }, 'new clinic notification not delivered');
      });
    },
  };
}

/** Checks every minute whether the weekly report is due; the claim makes it once per week across processes. */
export function startWeeklyReportJob(notifier: PlatformNotifier, log: FastifyBaseLogger): NodeJS.Timeout {
  const run = async () => {
    try {
      if (await notifier.sendWeeklyReportIfDue()) log.info('weekly report sent');
    } catch (error) {
      log.error({ err: error }, 'weekly report failed');
    }
  };
  const timer = setInterval(() => void run(), EVERY_MINUTE_MS);
  timer.unref();
  return timer;
}
