import { and, eq, ne, or } from 'drizzle-orm';
import type { AdminClinic, ClinicDetail } from '@carteirinha/shared/contracts/clinics';
import type { ClinicFormOutput } from '@carteirinha/shared/contracts/admin-clinics';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { clinics, plans, userRoles } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { uniqueViolationConstraint } from '../../lib/db-errors.ts';
import { clinicSiteUrl } from '../tenancy/host-site.ts';
import { clinicCounts, clinicHasPatientsOrPayments, findAdminClinic } from './repository.ts';

type Actor = { userId: string };
type SiteOptions = { mainDomain: string; publicUrl: string };

const CONSTRAINT_MESSAGES: Record<string, string> = {
  clinics_cnpj_unique: messages.tenancy.cnpjTaken,
  clinics_slug_unique: messages.tenancy.slugTaken,
  clinics_domain_unique: messages.admin.domainTaken,
};

/** The CNPJ, address and domain must be free (ignoring the clinic being edited). */
async function assertUnique(db: Database, input: ClinicFormOutput, exceptId: string | null): Promise<void> {
  const others = await db
    .select({ cnpj: clinics.cnpj, slug: clinics.slug, domain: clinics.domain })
    .from(clinics)
    .where(
      and(
        or(eq(clinics.cnpj, input.cnpj), eq(clinics.slug, input.slug), input.domain ? eq(clinics.domain, input.domain) : undefined),
        exceptId ? ne(clinics.id, exceptId) : undefined,
      ),
    );
  if (others.some((row) => row.cnpj === input.cnpj)) throw new AppError('CONFLICT', messages.tenancy.cnpjTaken);
  if (others.some((row) => row.slug === input.slug)) throw new AppError('CONFLICT', messages.tenancy.slugTaken);
  if (input.domain && others.some((row) => row.domain === input.domain)) throw new AppError('CONFLICT', messages.admin.domainTaken);
}

async function assertPlanExists(db: Database, planId: string | null): Promise<void> {
  if (!planId) return;
  const [plan] = await db.select({ id: plans.id }).from(plans).where(eq(plans.id, planId)).limit(1);
  if (!plan) throw new AppError('VALIDATION', messages.errors.NOT_FOUND);
}

/** A race lost to another admin's save still answers with the field's message, never a constraint name. */
function rethrowUnique(error: unknown): never {
  const constraint = uniqueViolationConstraint(error);
  if (constraint !== null) throw new AppError('CONFLICT', CONSTRAINT_MESSAGES[constraint] ?? messages.errors.CONFLICT);
  throw error;
}

function trialEndFor(status: ClinicFormOutput['status'], current: Date | null): Date | null {
  if (status !== 'trial') return null;
  return current ?? new Date(Date.now() + 14 * 24 * 60 * 60 * 1000);
}

async function mustFind(db: Database, clinicId: string): Promise<AdminClinic> {
  const clinic = await findAdminClinic(db, clinicId);
  if (!clinic) throw new AppError('NOT_FOUND');
  return clinic;
}

/** 'Nova Clínica': the admin creates a clinic (written to the audit trail). */
export async function createClinic(db: Database, actor: Actor, input: ClinicFormOutput): Promise<AdminClinic> {
  await assertUnique(db, input, null);
  await assertPlanExists(db, input.planId);
  const id = await db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(clinics)
        .values({ ...input, trialEndsAt: trialEndFor(input.status, null), createdBy: actor.userId })
        .returning({ id: clinics.id });
      if (!row) throw new AppError('INTERNAL');
      await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.created', entity: 'clinic', entityId: row.id, clinicId: row.id, details: { name: input.name } });
      return row.id;
    })
    .catch(rethrowUnique);
  return mustFind(db, id);
}

/** 'Editar Clínica'. */
export async function updateClinic(db: Database, actor: Actor, clinicId: string, input: ClinicFormOutput): Promise<AdminClinic> {
  const [current] = await db.select({ trialEndsAt: clinics.trialEndsAt }).from(clinics).where(eq(clinics.id, clinicId)).limit(1);
  if (!current) throw new AppError('NOT_FOUND');
  await assertUnique(db, input, clinicId);
  await assertPlanExists(db, input.planId);
  await db
    .transaction(async (tx) => {
      await tx
        .update(clinics)
        .set({ ...input, trialEndsAt: trialEndFor(input.status, current.trialEndsAt) })
        .where(eq(clinics.id, clinicId));
      await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.updated', entity: 'clinic', entityId: clinicId, clinicId, details: { ...input } });
    })
    .catch(rethrowUnique);
  return mustFind(db, clinicId);
}

/**
 * 'Excluir': only a clinic without patients or payments; its staff lose their role with it. The message says why
 * and suggests suspending instead.
 */
export async function deleteClinic(db: Database, actor: Actor, clinicId: string): Promise<void> {
  const clinic = await mustFind(db, clinicId);
  if (await clinicHasPatientsOrPayments(db, clinicId)) throw new AppError('CONFLICT', messages.admin.clinicHasPatients);
  await db.transaction(async (tx) => {
    await tx.delete(userRoles).where(eq(userRoles.clinicId, clinicId));
    await tx.delete(clinics).where(eq(clinics.id, clinicId));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.deleted', entity: 'clinic', entityId: clinicId, clinicId, details: { name: clinic.name, cnpj: clinic.cnpj } });
  });
}

/** 'Aprovar Cadastro': a clinic that signed up for a trial becomes active and keeps its data. */
export async function approveClinic(db: Database, actor: Actor, clinicId: string): Promise<AdminClinic> {
  await mustFind(db, clinicId);
  await db.transaction(async (tx) => {
    await tx.update(clinics).set({ status: 'active', trialEndsAt: null }).where(eq(clinics.id, clinicId));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'clinic.approved', entity: 'clinic', entityId: clinicId, clinicId });
  });
  return mustFind(db, clinicId);
}

/** 'Visualizar'. */
export async function clinicDetail(db: Database, clinicId: string, site: SiteOptions): Promise<ClinicDetail> {
  const clinic = await mustFind(db, clinicId);
  const [branding] = await db
    .select({ displayName: clinics.displayName, primaryColor: clinics.primaryColor, logoUrl: clinics.logoUrl })
    .from(clinics)
    .where(eq(clinics.id, clinicId));
  const counts = await clinicCounts(db, clinicId);
  return {
    ...clinic,
    displayName: branding?.displayName ?? null,
    primaryColor: branding?.primaryColor ?? null,
    logoUrl: branding?.logoUrl ?? null,
    url: clinicSiteUrl(clinic, site),
    ...counts,
  };
}
