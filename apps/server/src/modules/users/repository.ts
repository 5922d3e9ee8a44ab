import { and, count, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { ListQuery } from '@carteirinha/shared/contracts/pagination';
import type { AdminUser, UserCounts, UserProfile } from '@carteirinha/shared/contracts/users';
import type { Database } from '../../db/client.ts';
import { clinics, profiles, sessions, userRoles, users } from '../../db/schema.ts';
import { foldedContains } from '../../lib/sql.ts';

// Explicit aliases: a bare column name inside a correlated sub-query could bind to the inner table.
const lastSignInAt = sql<Date | null>`(select max(s.created_at) from sessions s where s.user_id = "users"."id")`.mapWith(
  (value: string | Date | null) => (value === null ? null : new Date(value)),
);

const userColumns = {
  id: users.id,
  email: users.email,
  fullName: users.name,
  role: userRoles.role,
  clinicId: userRoles.clinicId,
  clinicName: clinics.name,
  lastSignInAt,
  createdAt: users.createdAt,
};

type UserRow = {
  id: string;
  email: string;
  fullName: string;
  role: AdminUser['role'];
  clinicId: string | null;
  clinicName: string | null;
  lastSignInAt: Date | null;
  createdAt: Date;
};

function toAdminUser(row: UserRow): AdminUser {
  return {
    ...row,
    status: row.role ? 'active' : 'disabled',
    lastSignInAt: row.lastSignInAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

function baseQuery(db: Database) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .leftJoin(clinics, eq(clinics.id, userRoles.clinicId));
}

/** /admin/usuarios: newest first, searched by e-mail or name (case and accents ignored), paginated. */
export async function listUsers(db: Database, query: ListQuery) {
  const where = query.q ? or(foldedContains(users.email, query.q), foldedContains(users.name, query.q)) : undefined;
  const [rows, totals] = await Promise.all([
    baseQuery(db)
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { items: rows.map(toAdminUser), total: totals[0]?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

export async function findAdminUser(db: Database, userId: string): Promise<AdminUser | null> {
  const [row] = await baseQuery(db).where(eq(users.id, userId)).limit(1);
  return row ? toAdminUser(row) : null;
}

export async function findUserIdByEmail(db: Database, email: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return row?.id ?? null;
}

/** The five cards: all accounts, then holders of each role. */
export async function userCounts(db: Database): Promise<UserCounts> {
  const [total] = await db.select({ total: count() }).from(users);
  const byRole = await db.select({ role: userRoles.role, total: count() }).from(userRoles).groupBy(userRoles.role);
  const of = (role: string) => byRole.find((row) => row.role === role)?.total ?? 0;
  return { total: total?.total ?? 0, admins: of('admin'), clinicAdmins: of('clinic_admin'), staff: of('clinic_staff'), patients: of('patient') };
}

/** 'Ver Perfil'. */
export async function userProfile(db: Database, userId: string): Promise<UserProfile | null> {
  const user = await findAdminUser(db, userId);
  if (!user) return null;
  const [extra] = await db
    .select({ emailVerified: users.emailVerified, phone: profiles.phone })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  const [active] = await db
    .select({ total: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())));
  return { ...user, emailVerified: extra?.emailVerified ?? false, phone: extra?.phone ?? null, activeSessions: active?.total ?? 0 };
}
