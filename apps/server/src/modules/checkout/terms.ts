import { desc, eq } from 'drizzle-orm';
import type { ContractTerms } from '@carteirinha/shared/contracts/subscriptions';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { contractTerms } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { uniqueViolationConstraint } from '../../lib/db-errors.ts';

type TermsRow = typeof contractTerms.$inferSelect;

function toContractTerms(row: TermsRow): ContractTerms {
  return { id: row.id, version: row.version, body: row.body, createdAt: row.createdAt.toISOString() };
}

/** The clinic's newest terms: what checkout shows and asks to accept; null before the clinic has any. */
export async function findCurrentTerms(db: Database, clinicId: string): Promise<ContractTerms | null> {
  const [row] = await db.select().from(contractTerms).where(eq(contractTerms.clinicId, clinicId)).orderBy(desc(contractTerms.version)).limit(1);
  return row ? toContractTerms(row) : null;
}

/** The current terms or a pt-BR 404 ("a clínica ainda não publicou os termos"). */
export async function requireCurrentTerms(db: Database, clinicId: string): Promise<ContractTerms> {
  const terms = await findCurrentTerms(db, clinicId);
  if (!terms) throw new AppError('NOT_FOUND', messages.contractTerms.missing);
  return terms;
}

/**
 * PUT /api/clinic/terms: every save is a new version (n + 1); old versions stay, since acceptances point at them.
 * Two saves at once: the unique (clinic, version) index lets one win; the other is told to reload (409).
 */
export async function publishTerms(db: Database, actor: { userId: string; clinicId: string }, body: string): Promise<ContractTerms> {
  try {
    return await db.transaction(async (tx) => {
      const current = await findCurrentTerms(tx, actor.clinicId);
      const [row] = await tx
        .insert(contractTerms)
        .values({ clinicId: actor.clinicId, version: (current?.version ?? 0) + 1, body, createdBy: actor.userId })
        .returning();
      if (!row) throw new Error('contract terms not inserted');
      await recordAudit(tx, {
        actorUserId: actor.userId,
        action: 'contract_terms.published',
        entity: 'contract_terms',
        entityId: row.id,
        clinicId: actor.clinicId,
        details: { version: row.version },
      });
      return toContractTerms(row);
    });
  } catch (error) {
    if (uniqueViolationConstraint(error) === 'contract_terms_clinic_version_key') throw new AppError('CONFLICT');
    throw error;
  }
}
