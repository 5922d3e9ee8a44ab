import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { applyToPayment, type LedgerEffects, type LedgerOutcome } from './ledger.ts';
import type { ProcessDeps } from './webhook-events.ts';

/**
 * Settles one of our charges that the provider reported paid in its own answer (a card captured at checkout): the
 * same transition, locks and consequences as its PAYMENT_CONFIRMED webhook, which then changes nothing more. This is
 * checkout's `Billing.settle`.
 */
export async function settleChargeNow(db: Database, deps: ProcessDeps, paymentId: string, now: Date): Promise<LedgerOutcome> {
  const effects: LedgerEffects = { notices: [] };
  const outcome = await db.transaction(async (tx) => {
    const [row] = await tx.select({ method: payments.method }).from(payments).where(eq(payments.id, paymentId)).limit(1);
    if (!row) return 'unmatched' as const;
    return applyToPayment(tx, paymentId, row.method === 'credit_card' ? 'settleConfirmed' : 'settleReceived', 'checkout', effects, now, deps.cardBox);
  });
  deps.notify(effects.notices);
  return outcome;
}
