import { count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Clinic } from '@carteirinha/shared/contracts/clinics';
import type { ListQuery } from '@carteirinha/shared/contracts/pagination';
import { normalizeCnpj } from '@carteirinha/shared/validators';
import type { Database } from '../../db/client.ts';
import { clinics, plans, userRoles } from '../../db/schema.ts';
import { containsPattern } from '../../lib/sql.ts';

const patientCount = sql<number>`(
  select count(*)::int from ${userRoles}
  where ${userRoles.clinicId} = ${clinics.id} and ${userRoles.role} = 'patient'
)`;

const clinicColumns = {
  id: clinics.id,
  name: clinics.name,
  cnpj: clinics.cnpj,
  slug: clinics.slug,
  domain: clinics.domain,
  status: clinics.status,
  planId: clinics.planId,
  planName: plans.name,
  city: clinics.city,
  state: clinics.state,
  patientCount,
  trialEndsAt: clinics.trialEndsAt,
  createdAt: clinics.createdAt,
};

type ClinicRow = {
  [K in keyof typeof clinicColumns]: K extends 'trialEndsAt' ? Date | null : K extends 'createdAt' ? Date : Clinic[K];
};

function toClinic(row: ClinicRow): Clinic {
  return { ...row, trialEndsAt: row.trialEndsAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}

function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  // Only a term with a digit can be part of a CNPJ (even the 2026 alphanumeric ones end in two check digits, and
  // their roots mix letters and digits); a name like "São" must not match a CNPJ that happens to hold "SO".
  const cnpjFragment = /\d/.test(q) ? normalizeCnpj(q) : '';
  return or(ilike(clinics.name, containsPattern(q)), cnpjFragment ? ilike(clinics.cnpj, containsPattern(cnpjFragment)) : undefined);
}

/** Admin list of every clinic, newest first, searched and paginated on the server. */
export async function listClinics(db: Database, query: ListQuery) {
  const where = searchCondition(query.q);
  const [rows, totals] = await Promise.all([
    db
      .select(clinicColumns)
      .from(clinics)
      .leftJoin(plans, eq(plans.id, clinics.planId))
      .where(where)
      .orderBy(desc(clinics.createdAt), desc(clinics.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(clinics).where(where),
  ]);
  return { items: rows.map(toClinic), total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

/** One clinic by id. Callers decide who may ask: admins for any id, clinic users only for their own. */
export async function findClinic(db: Database, clinicId: string): Promise<Clinic | null> {
  const [row] = await db
    .select(clinicColumns)
    .from(clinics)
    .leftJoin(plans, eq(plans.id, clinics.planId))
    .where(eq(clinics.id, clinicId))
    .limit(1);
  return row ? toClinic(row) : null;
}
