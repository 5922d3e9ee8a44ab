import { and, asc, eq } from 'drizzle-orm';
import type { Service, ServiceForm } from '@carteirinha/shared/contracts/services';
import type { Database } from '../../db/client.ts';
import { services } from '../../db/schema.ts';

type Scope = { clinicId: string };

function toService(row: typeof services.$inferSelect): Service {
  return { id: row.id, name: row.name, category: row.category, priceCents: row.priceCents, isActive: row.isActive };
}

/** The clinic's price list, by name. */
export async function listServices(db: Database, scope: Scope): Promise<Service[]> {
  const rows = await db.select().from(services).where(eq(services.clinicId, scope.clinicId)).orderBy(asc(services.name), asc(services.id));
  return rows.map(toService);
}

/** One service of this clinic; null for another clinic's (a visit names it by id). */
export async function findService(db: Database, scope: Scope, id: string): Promise<Service | null> {
  const [row] = await db.select().from(services).where(and(eq(services.id, id), eq(services.clinicId, scope.clinicId))).limit(1);
  return row ? toService(row) : null;
}

export async function insertService(db: Database, scope: Scope, input: ServiceForm): Promise<Service> {
  const [row] = await db.insert(services).values({ clinicId: scope.clinicId, ...input }).returning();
  if (!row) throw new Error('service not inserted');
  return toService(row);
}
