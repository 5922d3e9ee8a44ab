/**
 * Daily reconciliation (ADR 013): a webhook can be lost (our server down for longer than Asaas retries, a paused
 * queue); the provider's record of the recent charges is compared with the ledger, and every difference is replayed
 * through the same state machine as a synthetic event (`reconciliation:<charge>:<status>`), logged and audited.
 */
import { and, eq, gte, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { auditLog, payments, subscriptions } from '../../db/schema.ts';
import { merchantAccountFor } from './providers/index.ts';
import type { ProviderCharge, ProviderName } from './providers/provider.ts';
import { actionOfEvent, canMove, eventOfProviderStatus, targetStatusOf } from './state-machine.ts';
import { processWebhookEvent, storeWebhookEvent, type ProcessDeps } from './webhook-events.ts';
import { asaasPaymentObjectOf } from './webhook-envelope.ts';

export type ReconcileDeps = ProcessDeps;

/** How far back the provider's charges are compared: three days covers a weekend of lost webhooks. */
export const RECONCILE_WINDOW_DAYS = 3;
/** Only providers that keep their own record are asked (the embedded one posts its events to us directly). */
const RECONCILED_PROVIDERS: ProviderName[] = ['asaas'];
/** Clinics with a charge this recent are asked; an idle clinic's ledger has nothing left to repair. */
const ACTIVE_CLINIC_DAYS = 120;
const DAY_MS = 24 * 60 * 60 * 1000;

export type ReconcileResult = { clinics: number; checked: number; repaired: number; failedClinics: number };

/** Whether the ledger lags behind what the provider reports for this charge. */
async function needsRepair(db: Database, provider: ProviderName, charge: ProviderCharge): Promise<{ event: string; paymentId: string | null } | null> {
  const event = eventOfProviderStatus(charge.status);
  if (!event) return null;
  const action = actionOfEvent(event);
  const [row] = await db
    .select({ id: payments.id, status: payments.status })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, charge.id)))
    .limit(1);
  if (row) {
    const target = targetStatusOf(action);
    return target && canMove(row.status, target) ? { event, paymentId: row.id } : null;
  }
  // Not in the ledger: a charge of one of our subscriptions whose PAYMENT_CREATED (and maybe more) was lost.
  if (action === 'delete' || !charge.subscriptionId) return null;
  const [subscription] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, charge.subscriptionId)))
    .limit(1);
  return subscription ? { event, paymentId: null } : null;
}

async function repair(db: Database, deps: ReconcileDeps, provider: ProviderName, clinicId: string, charge: ProviderCharge, finding: { event: string; paymentId: string | null }, now: Date): Promise<boolean> {
  const eventId = `reconciliation:${charge.id}:${charge.status}`;
  const envelope = { id: eventId, event: finding.event, dateCreated: now.toISOString(), payment: asaasPaymentObjectOf(charge) };
  const storedId = await storeWebhookEvent(db, provider, envelope, envelope, now);
  if (!storedId) return false;
  // The provider's own record is in hand: it is the settlement's read-back.
  const result = await processWebhookEvent(db, deps, storedId, now, charge);
  const [row] = await db
    .select({ id: payments.id, status: payments.status, clinicId: payments.clinicId })
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerPaymentId, charge.id)))
    .limit(1);
  const details = { eventId, event: finding.event, providerPaymentId: charge.id, providerStatus: charge.status, outcome: result.outcome, status: row?.status ?? null };
  await db.insert(auditLog).values({ actorUserId: null, action: 'payment.reconciled', entity: 'payment', entityId: row?.id ?? finding.paymentId, clinicId: row?.clinicId ?? clinicId, details });
  deps.log.warn({ clinicId: row?.clinicId ?? clinicId, ...details }, 'payments.reconciliation_repaired');
  return true;
}

/** The clinics with recent charges at a provider that keeps its own record. */
async function clinicsToReconcile(db: Database, provider: ProviderName, now: Date): Promise<string[]> {
  const rows = await db
    .selectDistinct({ clinicId: payments.clinicId })
    .from(payments)
    .where(and(inArray(payments.provider, [provider]), gte(payments.createdAt, new Date(now.getTime() - ACTIVE_CLINIC_DAYS * DAY_MS))));
  return rows.map((row) => row.clinicId);
}

/**
 * The 'reconciliation' job: per clinic with provider charges, the charges created or paid in the last 3 days are
 * compared with the ledger and repaired. A clinic whose provider cannot be reached is skipped (logged) and the others
 * go on; tomorrow's run looks 3 days back again.
 */
export async function reconcileRecentCharges(db: Database, deps: ReconcileDeps, now: Date): Promise<ReconcileResult> {
  const result: ReconcileResult = { clinics: 0, checked: 0, repaired: 0, failedClinics: 0 };
  const since = new Date(now.getTime() - RECONCILE_WINDOW_DAYS * DAY_MS);
  for (const providerName of RECONCILED_PROVIDERS) {
    const provider = deps.providers.byName(providerName);
    // Clinics without their own subaccount share the platform's account: it is listed once.
    let platformAccountListed = false;
    for (const clinicId of await clinicsToReconcile(db, providerName, now)) {
      let charges: ProviderCharge[];
      try {
        const account = await merchantAccountFor(db, deps.keyBox, clinicId);
        if (account.apiKey === null && platformAccountListed) continue;
        platformAccountListed ||= account.apiKey === null;
        result.clinics += 1;
        charges = await provider.listRecentCharges(account, since);
      } catch (error) {
        result.failedClinics += 1;
        deps.log.warn({ clinicId, provider: providerName, reason: error instanceof Error ? error.message : String(error) }, 'payments.reconciliation_clinic_failed');
        continue;
      }
      for (const charge of charges) {
        result.checked += 1;
        const finding = await needsRepair(db, providerName, charge);
        if (finding && (await repair(db, deps, providerName, clinicId, charge, finding, now))) result.repaired += 1;
      }
    }
  }
  deps.log.info({ ...result }, 'payments.reconciliation_done');
  return result;
}
