import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import type { MerchantAccount, PaymentProvider, ProviderCharge } from '../payments/providers/provider.ts';
import type { FollowUpQueue } from '../subscriptions/follow-ups.ts';

/**
 * What the patient-facing money routes need from the payments module: the provider new subscriptions go to, the
 * provider an existing subscription was made with, the clinic's merchant account, and the settlement of a charge the
 * provider already confirmed in its answer (a card), which must take the same path as a webhook's confirmation.
 */
export type Billing = {
  providerForNew: () => PaymentProvider;
  /** null when the name is not a provider this server knows (a subscription of a provider since switched off). */
  providerNamed: (name: string) => PaymentProvider | null;
  merchantAccount: (clinicId: string) => Promise<MerchantAccount>;
  /**
   * Settles one of our payments as paid (pending → active) on the provider's own answer `charge` (a card captured at
   * once); null while no settlement is wired in.
   */
  settle: ((paymentId: string, charge: ProviderCharge) => Promise<void>) | null;
};

export type CheckoutDeps = {
  db: Database;
  billing: Billing;
  /** The clock: tests move it (the 7-day withdrawal, due dates) instead of sleeping. */
  now: () => Date;
  /** The job runner: the lifecycle's follow-ups (provider calls, refunds, the receipt) are jobs. */
  jobs: FollowUpQueue;
  log: FastifyBaseLogger;
};

const DAY_MS = 24 * 60 * 60 * 1000;

export function todayIn(now: Date): string {
  return saoPauloDay(now);
}

export function daysBetween(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / DAY_MS;
}
