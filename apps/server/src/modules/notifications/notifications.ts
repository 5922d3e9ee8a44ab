import type { FastifyBaseLogger } from 'fastify';
import type { DashboardAlert } from '@carteirinha/shared/contracts/dashboard';
import { formatDate } from '@carteirinha/shared/format';
import { formatCount, formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import type { Schedule } from '../../lib/schedule.ts';
import { overdueClinics } from '../dashboard/service.ts';
import { reportFigures } from '../reports/service.ts';
import type { SettingsRow, SettingsStore } from '../settings/store.ts';

const s = messages.settings;

export type PlatformNotifier = {
  /**
   * 'Novas clínicas': tells the support address that a clinic signed up and awaits approval; answers whether it was
   * sent (not while the switch is off). A failed delivery throws: the 'platform-notices' job tries again.
   */
  clinicSignedUp: (clinic: { name: string }) => Promise<boolean>;
  /** 'Cancelamentos': tells the support address that a clinic was cancelled; as clinicSignedUp. */
  clinicCancelled: (clinic: { name: string }) => Promise<boolean>;
  /**
   * 'Relatórios automáticos': the figures of the week before the Monday `due` (a scheduled occurrence: the job
   * runner runs each once); answers whether it was sent (not while the switch is off).
   */
  sendWeeklyReport: (due: Date) => Promise<boolean>;
  /**
   * 'Pagamentos pendentes': the clinics with overdue charges at `now`, for the day's occurrence `due`; answers
   * whether it was sent (not while the switch is off, nor when no clinic is late).
   */
  sendOverduePayments: (due: Date, now: Date) => Promise<boolean>;
};

/** Mondays at 8 am (São Paulo), about the seven days before. */
export const WEEKLY_REPORT: Schedule = { hour: 8, weekday: 1 };
/** Every day at 8 am (São Paulo), when the team starts the day. */
export const OVERDUE_PAYMENTS_DIGEST: Schedule = { hour: 8 };
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

const PLATFORM_COLOR = '#0d9488';

/** 'Clínica A (em atraso desde 01/11/2026); Clínica B (…)', the longest overdue first, and how many more there are. */
function overdueClinicList(alerts: readonly DashboardAlert[], total: number): string {
  const listed = alerts
    .map((alert) => {
      // Overdue-payment alerts always name their clinic.
      const name = alert.clinicName ?? '';
      return alert.date ? formatMessage(s.overdueDigestClinic, { name, date: formatDate(alert.date) }) : name;
    })
    .join('; ');
  const more = total - alerts.length;
  return more > 0 ? formatMessage(s.overdueDigestMore, { clinics: listed, count: more }) : listed;
}

type PlatformEmail = { subject: string; intro: string; actionLabel: string; path: string; footer: string };

/**
 * E-mails to the platform's own team, each behind its toggle in admin Configurações. Each is sent by a durable job
 * (notifications/jobs.ts), never by the request that caused it: the clinic's sign-up does not depend on our SMTP
 * server, and a delivery that fails is tried again.
 */
export function createPlatformNotifier(options: {
  db: Database;
  settings: SettingsStore;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
}): PlatformNotifier {
  const { db } = options;
  function render(current: SettingsRow, email: PlatformEmail): RenderedEmail {
    return renderActionEmail({
      subject: email.subject,
      brandName: current.platformName,
      brandColor: PLATFORM_COLOR,
      intro: email.intro,
      actionLabel: email.actionLabel,
      actionUrl: `${options.publicUrl}${email.path}`,
      footer: email.footer,
    });
  }

  /** An e-mail about one event, sent to the support address; a failure is logged, never thrown. */
  async function notifySupport(current: SettingsRow, email: PlatformEmail): Promise<boolean> {
    await options.mailer.send(current.supportEmail, render(current, email));
    return true;
  }

  async function weeklyReportEmail(current: SettingsRow, due: Date): Promise<RenderedEmail> {
    const weekStart = new Date(due.getTime() - WEEK_MS);
    const lastDay = new Date(due.getTime() - 1);
    const [week, total] = await Promise.all([
      reportFigures(db, { from: saoPauloDay(weekStart), to: saoPauloDay(lastDay) }),
      reportFigures(db, { from: undefined, to: undefined }),
    ]);
    return render(current, {
      subject: formatMessage(s.weeklyReportSubject, { name: current.platformName }),
      intro: formatMessage(s.weeklyReportIntro, {
        from: formatDate(weekStart),
        to: formatDate(lastDay),
        // Words that agree with each count: "1 nova clínica", not "1 novas clínicas".
        clinics: formatCount(s.weeklyReportCounts.newClinics, week.clinics),
        users: formatCount(s.weeklyReportCounts.newUsers, week.users),
        totalClinics: formatCount(s.weeklyReportCounts.clinics, total.clinics),
        totalUsers: formatCount(s.weeklyReportCounts.users, total.users),
        activePlans: formatCount(s.weeklyReportCounts.activePlans, total.activePlans),
      }),
      actionLabel: s.weeklyReportAction,
      path: '/admin/relatorios',
      footer: s.weeklyReportFooter,
    });
  }

  return {
    async sendWeeklyReport(due) {
      const current = await options.settings.get();
      if (!current.notifyAutomaticReports) return false;
      await options.mailer.send(current.supportEmail, await weeklyReportEmail(current, due));
      return true;
    },

    async sendOverduePayments(due, now) {
      const current = await options.settings.get();
      if (!current.notifyPendingPayments) return false;
      // With no overdue charge today there is nothing to say; the day is done all the same.
      const overdue = await overdueClinics(db, now);
      if (overdue.total === 0) return false;
      const email = render(current, {
        subject: formatMessage(s.overdueDigestSubject, { name: current.platformName, date: formatDate(due) }),
        intro: formatMessage(s.overdueDigestIntro, { count: overdue.total, clinics: overdueClinicList(overdue.alerts, overdue.total) }),
        actionLabel: s.overdueDigestAction,
        path: '/admin',
        footer: s.overdueDigestFooter,
      });
      await options.mailer.send(current.supportEmail, email);
      return true;
    },

    async clinicSignedUp(clinic) {
      const current = await options.settings.get();
      if (!current.notifyNewClinics) return false;
      return notifySupport(current, {
          subject: formatMessage(s.newClinicSubject, { name: clinic.name }),
          intro: formatMessage(s.newClinicIntro, { name: clinic.name }),
          actionLabel: s.newClinicAction,
          path: '/admin',
        footer: s.newClinicFooter,
      });
    },

    async clinicCancelled(clinic) {
      const current = await options.settings.get();
      if (!current.notifyCancellations) return false;
      return notifySupport(current, {
          subject: formatMessage(s.clinicCancelledSubject, { name: clinic.name }),
          intro: formatMessage(s.clinicCancelledIntro, { name: clinic.name }),
          actionLabel: s.clinicCancelledAction,
          path: '/admin/clinicas',
        footer: s.clinicCancelledFooter,
      });
    },
  };
}
