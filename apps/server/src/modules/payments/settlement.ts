import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';
import { applyToPayment, type LedgerOutcome } from './ledger.ts';
import type { ProviderCharge } from './providers/provider.ts';

/**
 * Settles one of our charges that the provider reported paid in its own answer (a card captured at checkout): the
 * same transition, locks and consequences as its PAYMENT_CONFIRMED webhook, which then changes nothing more. The
 * provider's answer is its word on the charge (status and value), as a read-back would be. This is checkout's
 * `Billing.settle`.
 */
export async function settleChargeNow(db: Database, jobs: FollowUpQueue, paymentId: string, charge: ProviderCharge, now: Date): Promise<LedgerOutcome> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ method: payments.method }).from(payments).where(eq(payments.id, paymentId)).limit(1);
    if (!row) return 'unmatched' as const;
    const action = row.method === 'credit_card' ? 'settleConfirmed' : 'settleReceived';
    return applyToPayment(tx, paymentId, action, 'checkout', { jobs, now }, { kind: 'confirmed', charge });
  });
}
