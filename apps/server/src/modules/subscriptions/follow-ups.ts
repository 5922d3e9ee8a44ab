/**
 * What a subscription's transition asks of the modules that own the work (ADR 013 "Follow-ups"): the cards module
 * issues or suspends cards, the payments module cancels or refunds at the provider, the notifications module tells the
 * patient. The lifecycle never does that work itself: it writes one durable job per follow-up in the transition's own
 * transaction (ADR 012), so the work exists exactly when the change committed, and each owner registers the handler
 * of its queue. The queues and their payloads are declared here, where the transitions name them: the owners depend on
 * the subscriptions module, never the reverse.
 */
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { JobRunner } from '../jobs/runner.ts';

/** Handled by modules/cards/jobs.ts. */
export const CARD_WORK_QUEUE = 'subscription-cards';
/** Handled by modules/payments/provider-work.ts. */
export const PROVIDER_WORK_QUEUE = 'payment-provider-work';
/** Handled by modules/notifications/patient-notices.ts. */
export const PATIENT_NOTICE_QUEUE = 'patient-notices';

export const cardWorkSchema = z.discriminatedUnion('kind', [
  /** The subscription became active: every person it covers has a card (their card for life), pointed at it. */
  z.object({ kind: z.literal('issue'), subscriptionId: z.uuid() }),
  /** A dependent left the subscription: their card stops validating while the holder's goes on. */
  z.object({ kind: z.literal('suspend'), subscriptionId: z.uuid(), dependentId: z.uuid() }),
]);
export type CardWork = z.infer<typeof cardWorkSchema>;

/** Why money goes back: a charge paid after the subscription ended, or the 7-day withdrawal (CDC art. 49). */
export const REFUND_REASONS = ['paidAfterCancellation', 'withdrawal'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const providerWorkSchema = z.discriminatedUnion('kind', [
  /** Stop the recurring subscription at the provider (no more charges). */
  z.object({
    kind: z.literal('cancelSubscription'),
    subscriptionId: z.uuid(),
    source: z.string(),
    /**
     * The provider's subscription to stop, as it was when asked: turning the renewal back on makes a new one there
     * (ADR 028), which a late job must not stop. Absent in jobs written before: the subscription's current one.
     */
    providerSubscriptionId: z.string().optional(),
  }),
  /** Give back `amountCents` of a paid charge (null: all of it). */
  z.object({
    kind: z.literal('refundCharge'),
    paymentId: z.uuid(),
    amountCents: z.number().int().positive().nullable(),
    reason: z.enum(REFUND_REASONS),
    source: z.string(),
  }),
  /** The price of each cycle changed (plan, dependents): the provider's next charges follow. */
  z.object({ kind: z.literal('updateAmount'), subscriptionId: z.uuid(), amountCents: z.number().int().positive(), source: z.string() }),
]);
export type ProviderWork = z.infer<typeof providerWorkSchema>;

const instant = z.coerce.date();
const base = { userId: z.uuid(), planName: z.string(), amountCents: z.number().int() };

/** An e-mail to the patient about their subscription or a charge of it (rendered and sent by its queue's handler). */
export const patientNoticeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('confirmed'), ...base, expiresAt: instant.nullable(), benefitsStartAt: instant.nullable(), now: instant }),
  z.object({ kind: z.literal('reminderBefore'), ...base, dueDate: z.string() }),
  z.object({ kind: z.literal('reminderDue'), ...base, dueDate: z.string() }),
  z.object({ kind: z.literal('overdue'), ...base, dueDate: z.string(), benefitsUntil: instant.nullable() }),
  z.object({ kind: z.literal('suspended'), ...base, dueDate: z.string() }),
  /** A charge paid after the subscription was cancelled, refunded automatically. */
  z.object({ kind: z.literal('refundedAfterCancellation'), ...base }),
  /** The cancellation receipt (protocol, refund decided, until when the benefits last). */
  z.object({
    kind: z.literal('cancellationReceipt'),
    ...base,
    protocol: z.string(),
    canceledAt: instant,
    refundCents: z.number().int(),
    benefitsUntil: instant.nullable(),
  }),
  /** A visit registered at the desk with the holder's card or a dependent's (issue 29); the amount is what was paid. */
  z.object({
    kind: z.literal('visitRegistered'),
    ...base,
    visitId: z.uuid(),
    person: z.string(),
    serviceName: z.string(),
    performedAt: instant,
    originalCents: z.number().int(),
    discountPercent: z.number(),
  }),
  /** The paid-through date is near and nothing renews it (issue 29). */
  z.object({ kind: z.literal('subscriptionEnding'), ...base, endsAt: instant }),
]);
export type PatientNotice = z.input<typeof patientNoticeSchema>;

export type FollowUp =
  | { queue: typeof CARD_WORK_QUEUE; work: CardWork }
  | { queue: typeof PROVIDER_WORK_QUEUE; work: ProviderWork }
  | { queue: typeof PATIENT_NOTICE_QUEUE; notice: PatientNotice; key: string | null };

/** What a transition needs to hand its follow-ups over: the runner's enqueue (in the transition's transaction). */
export type FollowUpQueue = Pick<JobRunner, 'enqueue'>;

function singletonKeyOf(followUp: FollowUp): string | null {
  switch (followUp.queue) {
    case CARD_WORK_QUEUE:
      // Issuing is idempotent and may be asked again (a dependent added): no key, every request runs.
      return null;
    case PROVIDER_WORK_QUEUE: {
      const work = followUp.work;
      if (work.kind === 'refundCharge') return `refundCharge:${work.paymentId}`;
      if (work.kind === 'cancelSubscription') return `cancelSubscription:${work.subscriptionId}:${work.providerSubscriptionId ?? ''}`;
      return null;
    }
    case PATIENT_NOTICE_QUEUE:
      return followUp.key;
  }
}

function payloadOf(followUp: FollowUp): Record<string, unknown> {
  switch (followUp.queue) {
    case CARD_WORK_QUEUE:
      return followUp.work;
    case PROVIDER_WORK_QUEUE:
      return followUp.work;
    case PATIENT_NOTICE_QUEUE:
      return followUp.notice;
  }
}

/**
 * Writes one job per follow-up inside `tx` (a platform transaction: the tenant role cannot write `jobs`). A follow-up
 * whose singleton key is taken (the same refund, the same notice) adds nothing.
 */
export async function enqueueFollowUps(jobs: FollowUpQueue, tx: Database, followUps: readonly FollowUp[]): Promise<void> {
  for (const followUp of followUps) {
    const singletonKey = singletonKeyOf(followUp);
    await jobs.enqueue(followUp.queue, payloadOf(followUp), { tx, ...(singletonKey ? { singletonKey } : {}) });
  }
}
