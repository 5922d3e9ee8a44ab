import { TRIAL_DAYS } from '@carteirinha/shared/constants';
import type { AdminClinic, AdminClinicListQuery, ClinicDetail } from '@carteirinha/shared/contracts/clinics';
import { clinicPlanIssue, isOnMainDomain, type ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { isForeignKeyViolation, uniqueViolationConstraint } from '../../lib/db-errors.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { enqueuePlatformNotice } from '../notifications/jobs.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import { provisionClinicProgramme } from '../subscription-plans/starter-programme.ts';
import { enqueueClinicApprovedMails } from './approval-mail.ts';
import {
  approveTrialClinic,
  clinicCounts,
  clinicHasPatientsOrPayments,
  clinicsHoldingAddress,
  deleteClinicWithTeam,
  findAdminClinic,
  findClinicBranding,
  findClinicState,
  findPlanFacts,
  insertClinic,
  listClinics,
  lockClinic,
  updateClinicRow,
  type AdminClinicRecord,
  type ClinicWrite,
} from './repository.ts';

type Actor = { userId: string };
/** Where clinics' sites live: `<slug>.<mainDomain>`, with the scheme and port of the platform's public URL. */
export type SiteOptions = { mainDomain: string; publicUrl: string };

const DAY_MS = 24 * 60 * 60 * 1000;

const CONSTRAINT_MESSAGES: Record<string, string> = {
  clinics_cnpj_unique: messages.tenancy.cnpjTaken,
  clinics_slug_unique: messages.tenancy.slugTaken,
  clinics_domain_unique: messages.admin.domainTaken,
};

function withSiteUrl(clinic: AdminClinicRecord, site: SiteOptions): AdminClinic {
  return { ...clinic, url: clinicSiteUrl(clinic, site) };
}

/** The CNPJ, address and domain must be free (ignoring the clinic being edited). */
async function assertUnique(db: Database, input: ClinicFormOutput, exceptId: string | null): Promise<void> {
  const others = await clinicsHoldingAddress(db, input, exceptId);
  if (others.some((row) => row.cnpj === input.cnpj)) throw new AppError('CONFLICT', messages.tenancy.cnpjTaken);
  if (others.some((row) => row.slug === input.slug)) throw new AppError('CONFLICT', messages.tenancy.slugTaken);
  if (input.domain && others.some((row) => row.domain === input.domain)) throw new AppError('CONFLICT', messages.admin.domainTaken);
}

/** The platform's own addresses are not a clinic's domain: `<slug>.<main domain>` already reaches every clinic. */
function assertDomainOutsidePlatform(input: ClinicFormOutput, site: SiteOptions): void {
  if (input.domain && isOnMainDomain(input.domain, site.mainDomain)) {
    throw new AppError('VALIDATION', formatMessage(messages.adminClinics.domainOnMainDomain, { mainDomain: site.mainDomain }));
  }
}

/** The plan must exist, be active (unless the clinic already has it) and include a custom domain when one is set. */
async function assertPlanFits(db: Database, input: ClinicFormOutput, currentPlanId: string | null): Promise<void> {
  const plan = input.planId ? await findPlanFacts(db, input.planId) : null;
  const issue = clinicPlanIssue(input, plan, currentPlanId);
  if (issue) throw new AppError('VALIDATION', issue.message);
}

async function assertFormAccepted(db: Database, input: ClinicFormOutput, site: SiteOptions, current: { id: string; planId: string | null } | null) {
  assertDomainOutsidePlatform(input, site);
  await assertPlanFits(db, input, current?.planId ?? null);
  await assertUnique(db, input, current?.id ?? null);
}

/** A race lost to another admin's save still answers with the field's message, never a constraint name. */
function rethrowUnique(error: unknown): never {
  const constraint = uniqueViolationConstraint(error);
  if (constraint !== null) throw new AppError('CONFLICT', CONSTRAINT_MESSAGES[constraint] ?? messages.errors.CONFLICT);
  throw error;
}

/**
 * When the trial of a clinic saved as 'trial' ends: a trial still running keeps its end; one that starts now (the
 * clinic was in another status, or its trial already ran out) gets a fresh TRIAL_DAYS, or the expiry job would
 * suspend it again within a minute. Any other status has no trial.
 */
function trialEndFor(status: ClinicFormOutput['status'], current: { status: string; trialEndsAt: Date | null } | null, now: Date): Date | null {
  if (status !== 'trial') return null;
  if (current?.status === 'trial' && current.trialEndsAt && current.trialEndsAt > now) return current.trialEndsAt;
  return new Date(now.getTime() + TRIAL_DAYS * DAY_MS);
}

function clinicWrite(input: ClinicFormOutput, trialEndsAt: Date | null): ClinicWrite {
  const { name, cnpj, slug, domain, planId, status, city, state } = input;
  return { name, cnpj, slug, domain, planId, status, city, state, trialEndsAt };
}

async function mustFind(db: Database, clinicId: string, site: SiteOptions): Promise<AdminClinic> {
  const clinic = await findAdminClinic(db, clinicId);
  if (!clinic) throw new AppError('NOT_FOUND');
  return withSiteUrl(clinic, site);
}

/** GET /api/admin/clinics: a page of clinics, each with the address of its site. */
export async function listAdminClinics(db: Database, query: AdminClinicListQuery, site: SiteOptions) {
  const page = await listClinics(db, query);
  return { ...page, items: page.items.map((clinic) => withSiteUrl(clinic, site)) };
}

/** 'Nova Clínica': the admin creates a clinic, accepted from the start (written to the audit trail). */
export async function createClinic(db: Database, actor: Actor, input: ClinicFormOutput, site: SiteOptions): Promise<AdminClinic> {
  await assertFormAccepted(db, input, site, null);
  const now = new Date();
  const id = await db
    .transaction(async (tx) => {
      const clinicId = await insertClinic(tx, { ...clinicWrite(input, trialEndFor(input.status, null, now)), approvedAt: now, createdBy: actor.userId });
      if (!clinicId) throw new AppError('INTERNAL');
      await provisionClinicProgramme(tx, { id: clinicId, name: input.name, createdBy: actor.userId });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.created', entity: 'clinic', entityId: clinicId, clinicId, details: { name: input.name } });
      return clinicId;
    })
    .catch(rethrowUnique);
  return mustFind(db, id, site);
}


/**
 * 'Editar Clínica'. Saving a sign-up that awaits approval as 'active' accepts it, as 'Aprovar Cadastro' would; any
 * other save leaves the approval as it was. A clinic that becomes cancelled is told to the platform team, once: the
 * state the save starts from is read under the row's lock, so of two saves at once only the first sees the change.
 */
export async function updateClinic(
  db: Database,
  actor: Actor,
  clinicId: string,
  input: ClinicFormOutput,
  site: SiteOptions,
  jobs: Pick<JobRunner, 'enqueue'>,
): Promise<AdminClinic> {
  const now = new Date();
  await db
    .transaction(async (tx) => {
      const current = await findClinicState(tx, clinicId, { lock: true });
      if (!current) throw new AppError('NOT_FOUND');
      await assertFormAccepted(tx, input, site, { id: clinicId, planId: current.planId });
      const accepts = input.status === 'active' && current.approvedAt === null;
      await updateClinicRow(tx, clinicId, { ...clinicWrite(input, trialEndFor(input.status, current, now)), ...(accepts ? { approvedAt: now } : {}) });
      await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.updated', entity: 'clinic', entityId: clinicId, clinicId, details: { ...input } });
      // 'Cancelamentos': the platform team hears of it by a job written with the change (sent after the commit).
      if (input.status === 'cancelled' && current.status !== 'cancelled') await enqueuePlatformNotice(jobs, { kind: 'clinicCancelled', name: input.name }, tx);
    })
    .catch(rethrowUnique);
  return mustFind(db, clinicId, site);
}

/**
 * 'Excluir': only a clinic without patients, subscriptions or payments; its team lose their role with it. The check
 * runs inside the delete's transaction with the clinic's row locked, so a patient who enrols meanwhile either waits
 * and is refused by the foreign key, or is seen by the check. The message says why and suggests suspending instead.
 */
export async function deleteClinic(db: Database, actor: Actor, clinicId: string): Promise<void> {
  await db
    .transaction(async (tx) => {
      const clinic = await lockClinic(tx, clinicId);
      if (!clinic) throw new AppError('NOT_FOUND');
      if (await clinicHasPatientsOrPayments(tx, clinicId)) throw new AppError('CONFLICT', messages.admin.clinicHasPatients);
      await deleteClinicWithTeam(tx, clinicId);
      await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.deleted', entity: 'clinic', entityId: clinicId, clinicId, details: { name: clinic.name, cnpj: clinic.cnpj } });
    })
    .catch((error: unknown) => {
      // Something else still points at the clinic (a role or record the checks do not know): keep it, and say so.
      if (isForeignKeyViolation(error)) throw new AppError('CONFLICT', messages.admin.clinicHasPatients);
      throw error;
    });
}

/**
 * 'Aprovar Cadastro': a self-service sign-up is accepted and its site opens to patients; it keeps its 14-day trial
 * (issue 23: approval used to end it on day 0 and count the platform fee in MRR at once). An admin makes it 'Ativa'
 * in 'Editar' when it starts paying; a trial that runs out first is suspended. Any other state is a 409.
 */
export async function approveClinic(db: Database, jobs: Pick<JobRunner, 'enqueue'>, actor: Actor, clinicId: string, site: SiteOptions, now: Date): Promise<AdminClinic> {
  await db.transaction(async (tx) => {
    if (!(await approveTrialClinic(tx, clinicId, now))) {
      const exists = await findClinicState(tx, clinicId);
      throw exists ? new AppError('CONFLICT', messages.adminClinics.approveOnlyTrial) : new AppError('NOT_FOUND');
    }
    await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.approved', entity: 'clinic', entityId: clinicId, clinicId });
    // The owner is told by e-mail, in the clinic's name (issue 23: approval used to say nothing).
    await enqueueClinicApprovedMails(jobs, tx, clinicId);
  });
  return mustFind(db, clinicId, site);
}

/** 'Visualizar'. */
export async function clinicDetail(db: Database, clinicId: string, site: SiteOptions): Promise<ClinicDetail> {
  const clinic = await mustFind(db, clinicId, site);
  const [branding, counts] = await Promise.all([findClinicBranding(db, clinicId), clinicCounts(db, clinicId)]);
  return { ...clinic, ...branding, ...counts };
}

/** The clinic's admins, who are told of the clinic's own news: its approval, its payouts paid (issue 26). */
export { clinicAdminIds } from './repository.ts';
