import type { ClinicStatus } from './contracts/clinics.ts';
import { messages } from './messages.ts';
import type { Permission } from './permissions.ts';
import type { Role } from './roles.ts';

/**
 * Where a clinic stands for its own people (ADR 010): `open` (active, or in a trial that has days left), or closed
 * because its trial ran out (the nightly job then suspends it), the platform suspended it, or it was cancelled.
 */
export const CLINIC_STANDINGS = ['open', 'trialExpired', 'suspended', 'cancelled'] as const;
export type ClinicStanding = (typeof CLINIC_STANDINGS)[number];

/** A standing in which the clinic does not serve its people. */
export type ClosedStanding = Exclude<ClinicStanding, 'open'>;

/** What the clinic's team reads about a closed clinic: the portal's state page, and the API's CLINIC_INACTIVE message. */
export const CLOSED_CLINIC_TEXT: Record<ClosedStanding, { title: string; text: string }> = {
  trialExpired: { title: messages.tenancy.clinicTrialExpiredTitle, text: messages.tenancy.clinicTrialExpired },
  suspended: { title: messages.tenancy.clinicSuspendedTitle, text: messages.tenancy.clinicSuspended },
  cancelled: { title: messages.tenancy.clinicCancelledTitle, text: messages.tenancy.clinicCancelled },
};

/** The standing of a clinic at `now`; a trial past its end is closed before the job gets to suspend it. */
export function clinicStandingOf(clinic: { status: ClinicStatus; trialEndsAt: Date | string | null }, now: Date): ClinicStanding {
  switch (clinic.status) {
    case 'active':
      return 'open';
    case 'trial':
      return clinic.trialEndsAt !== null && new Date(clinic.trialEndsAt).getTime() < now.getTime() ? 'trialExpired' : 'open';
    case 'suspended':
      return 'suspended';
    case 'cancelled':
      return 'cancelled';
  }
}

/**
 * What each role keeps while its clinic is closed (ADR 010): a patient keeps their own records (LGPD: access and
 * portability do not depend on the clinic paying the platform) but not the programme; the clinic's team keeps only
 * what every signed-in user has (sign-in, /api/me), so the portal can say why it is closed. Anything not listed —
 * a permission added later included — is refused: the list says what survives, not what is taken away.
 */
const KEPT_WHILE_CLOSED: Record<Role, readonly Permission[]> = {
  // The platform's admins belong to no clinic: nothing of theirs ever closes.
  admin: ['platform:manage', 'outbox:read'],
  clinic_admin: [],
  clinic_staff: [],
  patient: ['patient:self'],
};

/** Whether a role keeps a permission (one its role grants) while its clinic is closed. */
export function keptWhileClosed(role: Role, permission: Permission): boolean {
  return KEPT_WHILE_CLOSED[role].includes(permission);
}

/** Whether a role may still use a permission (one its role grants) with its clinic in this standing. */
export function clinicStandingAllows(role: Role, permission: Permission, standing: ClinicStanding): boolean {
  return standing === 'open' || keptWhileClosed(role, permission);
}

/** The API's message for a refused call: the team is told why the clinic is closed, a patient what they still have. */
export function clinicInactiveMessage(role: Role, standing: ClosedStanding): string {
  return role === 'patient' ? messages.tenancy.patientClinicInactive : CLOSED_CLINIC_TEXT[standing].text;
}
