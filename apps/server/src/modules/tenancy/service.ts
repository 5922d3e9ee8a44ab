import { and, asc, count, eq, gte, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { DEMO_CLINIC_SLUG, TRIAL_DAYS } from '@carteirinha/shared/constants';
import { messages } from '@carteirinha/shared/messages';
import type { Role } from '@carteirinha/shared/roles';
import type { z } from 'zod';
import type { MapTiles, onboardingClinicSchema, TenantResponse } from '@carteirinha/shared/contracts/tenant';
import type { Database } from '../../db/client.ts';
import { clinics, plans, userRoles } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { uniqueViolationConstraint } from '../../lib/db-errors.ts';
import { foldedContains } from '../../lib/sql.ts';
import { clinicSiteUrl, type ClinicSite, type HostSite } from './host-site.ts';
import { plansOnSale } from '../subscription-plans/service.ts';
import { provisionClinicProgramme } from '../subscription-plans/starter-programme.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { enqueuePlatformNotice } from '../notifications/jobs.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The message for each unique index a lost race can break; the onboarding form has no domain field, only the slug. */
const CONSTRAINT_MESSAGES: Record<string, string> = {
  clinics_cnpj_unique: messages.tenancy.cnpjTaken,
  clinics_slug_unique: messages.tenancy.slugTaken,
  clinics_domain_unique: messages.tenancy.slugTaken,
};

/** What a site's answer needs beyond the database: the addresses, and two admin Configurações read when asked. */
export type TenantAnswerOptions = {
  mainDomain: string;
  publicUrl: string;
  /** Whether the sign-in form may offer Google (the admin toggle, and credentials on the server). */
  googleSignIn: () => Promise<boolean>;
  /** The shortest new password (admin Configurações), for the sign-up and reset forms. */
  passwordMinLength: () => Promise<number>;
  /** The network map's tiles (configuration). */
  mapTiles: MapTiles;
  /** Whether the forms carry the captcha (CAPTCHA, ADR 029). */
  captcha: boolean;
};

/** Clínica Demo's own site, where the platform's 'Ver Demonstração' leads; null when there is no open demo clinic. */
async function demoUrl(db: Database, options: TenantAnswerOptions): Promise<string | null> {
  const [demo] = await db
    .select({ slug: clinics.slug, domain: clinics.domain })
    .from(clinics)
    .where(and(eq(clinics.slug, DEMO_CLINIC_SLUG), eq(clinics.status, 'active')))
    .limit(1);
  return demo ? clinicSiteUrl(demo, options) : null;
}

/**
 * Which site a host is (GET /api/tenant, and the landing page the server draws, ADR 019): the platform, or one
 * clinic with its branding and the patient plans it sells now.
 */
export async function tenantOf(db: Database, site: HostSite, options: TenantAnswerOptions): Promise<TenantResponse> {
  const googleSignIn = await options.googleSignIn();
  const passwordMinLength = await options.passwordMinLength();
  const { mapTiles, captcha } = options;
  if (site.kind !== 'clinic') return { kind: 'platform', demoUrl: await demoUrl(db, options), googleSignIn, passwordMinLength, mapTiles, captcha };
  const { id, name, slug, logoUrl, primaryColor, city, state, awaitingApproval } = site.clinic;
  return {
    kind: 'clinic',
    clinic: { id, name, slug, logoUrl, primaryColor, city, state },
    // Until 'Aprovar Cadastro' the site offers nothing to subscribe to: it says it awaits approval.
    plans: awaitingApproval ? [] : await plansOnSale(db, { clinicId: id }),
    googleSignIn,
    awaitingApproval,
    passwordMinLength,
    mapTiles,
    captcha,
  };
}

/** Whether the clinic's platform plan has room for one more patient (DESIGN.md §2: limits are enforced). */
export async function patientLimitReached(db: Database, clinic: Pick<ClinicSite, 'id' | 'planId'>): Promise<boolean> {
  if (!clinic.planId) return false;
  const [plan] = await db.select({ maxPatients: plans.maxPatients }).from(plans).where(eq(plans.id, clinic.planId)).limit(1);
  if (plan?.maxPatients === null || plan?.maxPatients === undefined) return false;
  const [row] = await db
    .select({ patients: count() })
    .from(userRoles)
    .where(and(eq(userRoles.clinicId, clinic.id), eq(userRoles.role, 'patient')));
  return (row?.patients ?? 0) >= plan.maxPatients;
}

/** Makes a person who signed up on a clinic's site a patient of that clinic. */
export async function enrolPatient(db: Database, userId: string, clinicId: string): Promise<void> {
  await db.insert(userRoles).values({ userId, role: 'patient', clinicId }).onConflictDoNothing({ target: userRoles.userId });
}

/**
 * "Sou paciente" (issue 14): an account with no role (made on the platform's site) that signs in on an open clinic's
 * site becomes its patient, with an audit row. The role row's unique user decides a race with another assignment;
 * the answer is whether the account belongs to this clinic afterwards.
 */
export async function enrolPatientOnFirstSignIn(db: Database, userId: string, clinicId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(userRoles).values({ userId, role: 'patient', clinicId }).onConflictDoNothing({ target: userRoles.userId }).returning({ id: userRoles.id });
    if (inserted.length > 0) {
      await recordAudit(tx, { actorUserId: userId, action: 'role.assigned', entity: 'user_role', entityId: userId, clinicId, details: { role: 'patient', via: 'first_sign_in_on_clinic_site' } });
      return true;
    }
    const current = await assignmentOfUser(tx, userId);
    return current?.role === 'patient' && current.clinicId === clinicId;
  });
}

/** A user's role and clinic; null for an account with no role yet. */
export async function assignmentOfUser(db: Database, userId: string): Promise<{ role: Role; clinicId: string | null } | null> {
  const [row] = await db.select({ role: userRoles.role, clinicId: userRoles.clinicId }).from(userRoles).where(eq(userRoles.userId, userId)).limit(1);
  return row ?? null;
}

async function assertAvailable(db: Database, input: { cnpj: string; slug: string }): Promise<void> {
  const taken = await db
    .select({ cnpj: clinics.cnpj, slug: clinics.slug })
    .from(clinics)
    .where(or(eq(clinics.cnpj, input.cnpj), eq(clinics.slug, input.slug), eq(clinics.domain, input.slug)));
  if (taken.some((row) => row.cnpj === input.cnpj)) throw new AppError('CONFLICT', messages.tenancy.cnpjTaken);
  if (taken.length > 0) throw new AppError('CONFLICT', messages.tenancy.slugTaken);
}

/**
 * A self-service plan is an active one with a list price: a plan without one is "sob consulta" (Enterprise,
 * specification §9), agreed with the platform's team and set by an admin, never picked in onboarding (ADR 010).
 */
const selfServicePlan = and(eq(plans.isActive, true), isNotNull(plans.priceCents));

async function choosePlan(db: Database, planId: string | undefined): Promise<string | null> {
  if (planId) {
    const [plan] = await db.select({ id: plans.id, isActive: plans.isActive, priceCents: plans.priceCents }).from(plans).where(eq(plans.id, planId)).limit(1);
    if (!plan || !plan.isActive) throw new AppError('VALIDATION', messages.errors.NOT_FOUND);
    if (plan.priceCents === null) throw new AppError('VALIDATION', messages.tenancy.planNotSelfService);
    return plan.id;
  }
  // No choice made: the cheapest self-service plan.
  const [cheapest] = await db.select({ id: plans.id }).from(plans).where(selfServicePlan).orderBy(asc(plans.priceCents)).limit(1);
  return cheapest?.id ?? null;
}

/**
 * Onboarding: a signed-in person without a role creates their clinic, in a 14-day trial (specification §1), and
 * becomes its clinic_admin — both rows or neither. `approved_at` stays null: the sign-up awaits 'Aprovar Cadastro'.
 */
export async function createTrialClinic(
  db: Database,
  jobs: Pick<JobRunner, 'enqueue'>,
  userId: string,
  input: z.output<typeof onboardingClinicSchema>,
): Promise<{ clinicId: string; slug: string; trialEndsAt: Date }> {
  await assertAvailable(db, input);
  const planId = await choosePlan(db, input.planId);
  const trialEndsAt = new Date(Date.now() + TRIAL_DAYS * DAY_MS);
  try {
    return await db.transaction(async (tx) => {
      const [clinic] = await tx
        .insert(clinics)
        .values({ name: input.name, cnpj: input.cnpj, slug: input.slug, planId, status: 'trial', trialEndsAt, createdBy: userId })
        .returning({ id: clinics.id });
      if (!clinic) throw new AppError('INTERNAL');
      await tx.insert(userRoles).values({ userId, role: 'clinic_admin', clinicId: clinic.id });
      await provisionClinicProgramme(tx, { id: clinic.id, name: input.name, createdBy: userId });
      // 'Novas clínicas': the platform team hears of it by a job written with the clinic, sent after the answer.
      await enqueuePlatformNotice(jobs, { kind: 'clinicSignedUp', name: input.name }, tx);
      return { clinicId: clinic.id, slug: input.slug, trialEndsAt };
    });
  } catch (error) {
    // Two people racing for the same CNPJ or address: the database's unique indexes decide, and the message names
    // the field that lost.
    const constraint = uniqueViolationConstraint(error);
    if (constraint !== null) throw new AppError('CONFLICT', CONSTRAINT_MESSAGES[constraint] ?? messages.errors.CONFLICT);
    throw error;
  }
}

/**
 * Clinics that take patients now: active ones, and approved trials with days left (a sign-up awaiting 'Aprovar
 * Cadastro' takes none; an expired trial's site is closed).
 */
function takesPatients(now: Date) {
  return or(
    eq(clinics.status, 'active'),
    and(eq(clinics.status, 'trial'), isNotNull(clinics.approvedAt), or(isNull(clinics.trialEndsAt), gte(clinics.trialEndsAt, now))),
  );
}

/** "Sou paciente": clinics whose site is open, by name or city, ignoring case and accents ("sao paulo" finds "São Paulo"). */
export async function searchOpenClinics(db: Database, q: string) {
  return db
    .select({ name: clinics.name, displayName: clinics.displayName, slug: clinics.slug, domain: clinics.domain, city: clinics.city, state: clinics.state })
    .from(clinics)
    .where(and(takesPatients(new Date()), or(foldedContains(clinics.name, q), foldedContains(clinics.displayName, q), foldedContains(clinics.city, q))))
    .orderBy(asc(clinics.name))
    .limit(10);
}

/** Trials that ran out without an admin activating the clinic are suspended. Safe to run from several processes. */
export async function suspendExpiredTrials(db: Database, now = new Date()): Promise<number> {
  const suspended = await db
    .update(clinics)
    .set({ status: 'suspended' })
    .where(and(eq(clinics.status, 'trial'), lt(clinics.trialEndsAt, now)))
    .returning({ id: clinics.id });
  return suspended.length;
}
