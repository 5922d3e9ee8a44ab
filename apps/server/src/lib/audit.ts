import type { Database } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

export type AuditEntry = {
  actorUserId: string;
  /** What happened, as `entity.verb`: `clinic.created`, `role.removed`, … */
  action: string;
  entity: 'clinic' | 'plan' | 'user' | 'user_role' | 'settings' | 'subscription_plan' | 'subscription' | 'payment' | 'contract_terms' | 'service' | 'visit' | 'payout' | 'company_membership' | 'network_place' | 'dependent' | 'card_device';
  entityId: string | null;
  clinicId?: string | null;
  details?: Record<string, unknown>;
};

/** Appends one row to the audit trail; call it in the same transaction as the change it records. */
export async function recordAudit(db: Database, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    clinicId: entry.clinicId ?? null,
    details: entry.details ?? null,
  });
}
