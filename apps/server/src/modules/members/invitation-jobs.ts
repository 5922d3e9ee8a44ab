/**
 * The invitation of a person a company enrolled (issue 26): one durable job per person, written in the import's
 * transaction, so the e-mails exist exactly when the import committed and an SMTP server that is down delays them
 * instead of losing them. The e-mail speaks for the clinic (its name, colour and site: the link opens on the clinic's
 * host), says which company shared the person's data and how to refuse (LGPD).
 */
import { DEFAULT_PRIMARY_COLOR } from '@carteirinha/shared/constants';
import { MEMBER_IMPORT_PAYERS } from '@carteirinha/shared/contracts/member-imports';
import { formatIsoDay } from '@carteirinha/shared/format';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { EMAIL_RETRIES } from '../jobs/backoff.ts';
import type { JobLog, JobRunner } from '../jobs/runner.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import { clinicOfInvitation, invitationUrl, renewInvitationToken, type InvitingClinic } from '../users/invitations.ts';
import { clinicContactEmail, pendingInvitee } from './repository.ts';

export const MEMBER_INVITATION_QUEUE = 'member-invitations';

const t = messages.memberImport;

export const memberInvitationSchema = z.object({
  userId: z.uuid(),
  clinicId: z.uuid(),
  companyName: z.string(),
  planName: z.string(),
  payer: z.enum(MEMBER_IMPORT_PAYERS),
  validUntil: z.string().nullable(),
});
export type MemberInvitation = z.infer<typeof memberInvitationSchema>;

/** One job per person, in the import's transaction; a person is invited once per enrolment (singleton key). */
export async function enqueueMemberInvitations(jobs: Pick<JobRunner, 'enqueue'>, tx: Database, invitations: MemberInvitation[]): Promise<void> {
  for (const invitation of invitations) {
    await jobs.enqueue(MEMBER_INVITATION_QUEUE, invitation, { tx, singletonKey: `member-invitation:${invitation.userId}` });
  }
}

type Site = { mainDomain: string; publicUrl: string };

export function memberInvitationEmail(
  site: Site,
  invitation: MemberInvitation,
  people: { fullName: string; clinic: InvitingClinic; contactEmail: string | null; token: string },
): RenderedEmail {
  const { clinic } = people;
  const intro = formatMessage(t.inviteIntro, { name: people.fullName, company: invitation.companyName, clinic: clinic.name, plan: invitation.planName });
  const paid = invitation.payer === 'company' && invitation.validUntil ? ` ${formatMessage(t.inviteCompanyPays, { company: invitation.companyName, date: formatIsoDay(invitation.validUntil) })}` : '';
  return renderActionEmail({
    subject: formatMessage(t.inviteSubject, { company: invitation.companyName, clinic: clinic.name }),
    brandName: clinic.name,
    brandColor: clinic.primaryColor ?? DEFAULT_PRIMARY_COLOR,
    intro: `${intro}${paid}`,
    actionLabel: t.inviteAction,
    actionUrl: invitationUrl(site, clinic, people.token),
    footer: formatMessage(t.inviteRefuse, { contact: people.contactEmail ?? clinicSiteUrl(clinic, site) }),
  });
}

/** The e-mail retries of every queue; a worker that died mid-send does not resend (the person is invited once). */
const INVITATION_RETRIES = { ...EMAIL_RETRIES, abandoned: 'fail' } as const;

export function registerMemberInvitationJobs(runner: JobRunner, deps: Site & { db: Database; mailer: Mailer; log: JobLog }): void {
  runner.register(
    MEMBER_INVITATION_QUEUE,
    async (job) => {
      const invitation = memberInvitationSchema.parse(job.payload);
      const [invitee, clinic, contactEmail] = await Promise.all([
        pendingInvitee(deps.db, invitation.userId),
        clinicOfInvitation(deps.db, invitation.clinicId),
        clinicContactEmail(deps.db, { clinicId: invitation.clinicId }),
      ]);
      // Already has a password (accepted an earlier link, or signed up), or the account or clinic is gone: nothing to send.
      if (!invitee || !clinic) return;
      const token = await renewInvitationToken(deps.db, invitation.userId, job.startedAt);
      await deps.mailer.send(invitee.email, memberInvitationEmail(deps, invitation, { fullName: invitee.fullName, clinic, contactEmail, token }));
      deps.log.info({ userId: invitation.userId, clinicId: invitation.clinicId }, 'members.invitation_sent');
    },
    { concurrency: 2, ...INVITATION_RETRIES },
  );
}
