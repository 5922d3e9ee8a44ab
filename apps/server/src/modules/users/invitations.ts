import { randomBytes } from 'node:crypto';
import { DEFAULT_PRIMARY_COLOR } from '@carteirinha/shared/constants';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import { ROLE_LABELS, type Role } from '@carteirinha/shared/roles';
import { renderActionEmail, type RenderedEmail } from '../../lib/email-templates.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import type { Database } from '../../db/client.ts';
import { deleteInvitationTokens, insertInvitationToken, invitingClinic, type InvitingClinic } from './repository.ts';

export type { InvitingClinic } from './repository.ts';

/**
 * An invitation link lasts a week: the person may open the e-mail days later. Ordinary password-reset links keep
 * better-auth's one hour (auth.ts), since whoever asks for one is at the screen.
 */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** The web's "Aceitar convite" page; it sets the password through better-auth's reset endpoint with the token. */
export const INVITATION_PATH = '/auth/aceitar-convite';

/** Where invitations are sent from and what their links point at. */
export type InvitationDeps = { mailer: Mailer; mainDomain: string; publicUrl: string };

export type Invitation = { email: string; role: Role; clinic: InvitingClinic | null; token: string };

/** A new set-password token: 192 random bits, URL-safe. */
export function newInvitationToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Suspended and cancelled clinics have their site closed: their people are invited to the platform's site. */
function siteIsOpen(clinic: InvitingClinic): boolean {
  return clinic.status === 'active' || clinic.status === 'trial';
}

/**
 * The invitation e-mail: for a clinic role it carries the clinic's name and colour and links to the clinic's own
 * site (where that person will sign in); for a Super Admin, the platform's.
 */
export function invitationEmail(deps: InvitationDeps, invitation: Invitation): RenderedEmail {
  const { clinic } = invitation;
  const role = ROLE_LABELS[invitation.role];
  return renderActionEmail({
    subject: clinic ? formatMessage(messages.adminUsers.inviteSubjectClinic, { clinic: clinic.name }) : messages.admin.inviteSubject,
    brandName: clinic?.name ?? 'Carteirinha',
    brandColor: clinic?.primaryColor ?? DEFAULT_PRIMARY_COLOR,
    intro: clinic ? formatMessage(messages.adminUsers.inviteIntroClinic, { clinic: clinic.name, role }) : formatMessage(messages.admin.inviteIntro, { role }),
    actionLabel: messages.admin.inviteAction,
    // A page of its own (welcome, 'Criar senha'), not 'Redefinir senha': the person never had a password.
    actionUrl: clinic ? invitationUrl(deps, clinic, invitation.token) : `${deps.publicUrl}${INVITATION_PATH}?token=${encodeURIComponent(invitation.token)}`,
    footer: messages.adminUsers.inviteFooter,
  });
}

/** Sends the invitation; the mailer throws when the SMTP server refuses it (and records the failure in the outbox). */
export async function sendInvitation(deps: InvitationDeps, invitation: Invitation): Promise<void> {
  await deps.mailer.send(invitation.email, invitationEmail(deps, invitation));
}

/**
 * A fresh set-password link for an invited account (its earlier links forgotten), for invitations other modules
 * send: the clinic's patients enrolled by a company (issue 26). Answers the token, to put in the e-mail.
 */
export async function renewInvitationToken(db: Database, userId: string, now: Date): Promise<string> {
  const token = newInvitationToken();
  await deleteInvitationTokens(db, userId);
  await insertInvitationToken(db, userId, token, new Date(now.getTime() + INVITATION_LIFETIME_MS));
  return token;
}

/** The clinic an invitation speaks for (name, colour, site), or null when it is gone. */
export function clinicOfInvitation(db: Database, clinicId: string): Promise<InvitingClinic | null> {
  return invitingClinic(db, clinicId);
}

/** The address an invitation's link opens: the clinic's own site while it is open, else the platform's. */
export function invitationUrl(deps: Pick<InvitationDeps, 'mainDomain' | 'publicUrl'>, clinic: InvitingClinic, token: string): string {
  const baseUrl = siteIsOpen(clinic) ? clinicSiteUrl(clinic, deps) : deps.publicUrl;
  return `${baseUrl}${INVITATION_PATH}?token=${encodeURIComponent(token)}`;
}
