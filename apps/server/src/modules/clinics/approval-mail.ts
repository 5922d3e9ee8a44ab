import { z } from 'zod';
import { formatDate } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { AccountHome } from '../auth/account-home.ts';
import { EMAIL_RETRIES } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { approvalMailFacts, clinicAdminIds } from './repository.ts';

export const CLINIC_APPROVED_QUEUE = 'clinic-approved-mail';

const payloadSchema = z.object({ clinicId: z.uuid(), userId: z.uuid() });

const a = messages.adminClinics;

/**
 * What a clinic admin reads when the platform approves the clinic: in the clinic's own name and colour, with the link
 * on the clinic's own host (everything a clinic's people receive is the clinic's), and the trial that goes on.
 */
export function clinicApprovedEmail(home: AccountHome, clinic: { name: string; trialEndsAt: Date | null }): RenderedEmail {
  const intro = formatMessage(a.approvedIntro, { clinic: clinic.name });
  const trial = clinic.trialEndsAt ? ` ${formatMessage(a.approvedTrial, { date: formatDate(clinic.trialEndsAt.toISOString()) })}` : '';
  return renderActionEmail({
    subject: formatMessage(a.approvedSubject, { clinic: clinic.name }),
    brandName: home.name,
    brandColor: home.color,
    intro: `${intro}${trial}`,
    actionLabel: a.approvedAction,
    actionUrl: `${home.baseUrl}/clinica`,
    footer: formatMessage(a.approvedFooter, { clinic: clinic.name }),
  });
}

/**
 * Writes one e-mail job per admin of the clinic, in the approval's transaction: the e-mails exist exactly when the
 * approval does, and a retry after an SMTP failure re-sends only the one that failed.
 */
export async function enqueueClinicApprovedMails(jobs: Pick<JobRunner, 'enqueue'>, tx: Database, clinicId: string): Promise<void> {
  for (const userId of await clinicAdminIds(tx, clinicId)) {
    await jobs.enqueue(CLINIC_APPROVED_QUEUE, { clinicId, userId }, { tx, singletonKey: `clinic-approved:${clinicId}:${userId}` });
  }
}

export type ClinicApprovedMailDeps = { db: Database; mailer: Mailer; homeOf: (userId: string) => Promise<AccountHome>; log: JobLog };

export function registerClinicApprovedMail(runner: JobRunner, deps: ClinicApprovedMailDeps): void {
  runner.register(
    CLINIC_APPROVED_QUEUE,
    async (job) => {
      const { clinicId, userId } = payloadSchema.parse(job.payload);
      const row = await approvalMailFacts(deps.db, clinicId, userId);
      // The account or the clinic went since the approval: nobody to tell.
      if (!row) return;
      await deps.mailer.send(row.email, clinicApprovedEmail(await deps.homeOf(userId), row));
      deps.log.info({ clinicId }, 'clinic approval e-mailed');
    },
    EMAIL_RETRIES,
  );
}
