import { z } from 'zod';
import { messages } from '../messages.ts';
import { paymentSchema } from './payments.ts';
import { creditCardSchema } from './subscriptions.ts';

const m = messages.planChange;

/**
 * How a change of plan takes effect (issue 27, ADR 028): an upgrade (a dearer cycle) when the charge for the difference
 * over the rest of the paid period is paid; a downgrade (the same price or less) at the next renewal.
 */
export const PLAN_CHANGE_KINDS = ['upgrade', 'downgrade'] as const;
export type PlanChangeKind = (typeof PLAN_CHANGE_KINDS)[number];

/** A change asked for and not yet in effect; `applied`, `canceled` (by the patient, or a cancellation) and `lapsed` (its charge went unpaid) end it. */
export const PLAN_CHANGE_STATUSES = ['pending', 'applied', 'canceled', 'lapsed'] as const;
export type PlanChangeStatus = (typeof PLAN_CHANGE_STATUSES)[number];

/** The methods the difference of an upgrade is paid by: Pix or boleto at once, or a card captured at once. */
export const PLAN_CHANGE_METHODS = ['pix', 'boleto', 'credit_card'] as const;

/** One plan the patient may move to, with what moving costs, from the same rule that charges it. */
export const planChangeOptionSchema = z.object({
  planId: z.uuid(),
  planName: z.string(),
  kind: z.enum(PLAN_CHANGE_KINDS),
  /** The price of each cycle on the new plan, for the holder and the dependents kept. */
  amountCents: z.number().int().nonnegative(),
  /** Upgrade: charged now, the difference over the days left of the paid period; 0 for a downgrade. */
  chargeCents: z.number().int().nonnegative(),
  /** Upgrade: the days of the paid period the difference covers. */
  remainingDays: z.number().int().nonnegative(),
  /** Downgrade: when it takes effect (the paid-through date); null for an upgrade (when its charge is paid). */
  effectiveAt: z.iso.datetime({ offset: true }).nullable(),
  /** The new plan's max_members − 1: with fewer than the holder covers now, the patient chooses who stays. */
  maxDependents: z.number().int().nonnegative(),
});
export type PlanChangeOption = z.infer<typeof planChangeOptionSchema>;

/** A change of plan asked for, as the patient sees it. */
export const planChangeSchema = z.object({
  id: z.uuid(),
  kind: z.enum(PLAN_CHANGE_KINDS),
  status: z.enum(PLAN_CHANGE_STATUSES),
  toPlanName: z.string(),
  amountCents: z.number().int().nonnegative(),
  chargeCents: z.number().int().nonnegative(),
  effectiveAt: z.iso.datetime({ offset: true }).nullable(),
  /** The upgrade's charge (to pay it again from the dialog); null for a downgrade. */
  payment: paymentSchema.nullable(),
});
export type PlanChange = z.infer<typeof planChangeSchema>;

/** Why no change is offered: no live subscription, a company pays it, it is being cancelled, a charge is overdue, or the first is unpaid. */
export const PLAN_CHANGE_BLOCKS = ['noSubscription', 'companyPaid', 'canceled', 'overdue', 'notPaidYet'] as const;
export type PlanChangeBlock = (typeof PLAN_CHANGE_BLOCKS)[number];

/** GET /api/patient/plan-change: the plans the patient may move to, their dependents, and a change already asked. */
export const planChangeOverviewSchema = z.object({
  blockedBy: z.enum(PLAN_CHANGE_BLOCKS).nullable(),
  currentPlanId: z.uuid().nullable(),
  options: z.array(planChangeOptionSchema),
  dependents: z.array(z.object({ id: z.uuid(), fullName: z.string() })),
  pending: planChangeSchema.nullable(),
});
export type PlanChangeOverview = z.infer<typeof planChangeOverviewSchema>;

/**
 * POST /api/patient/plan-change: the plan, whom of the dependents it keeps (all of them when the new plan has room),
 * and, for an upgrade, how the difference is paid (the card only for 'credit_card', never stored).
 */
export const planChangeRequestSchema = z
  .object({
    planId: z.uuid(m.planRequired),
    keepDependentIds: z.array(z.uuid()).max(20).default([]),
    paymentMethod: z.enum(PLAN_CHANGE_METHODS, m.methodRequired).default('pix'),
    creditCard: creditCardSchema.optional(),
  })
  .refine((input) => input.paymentMethod !== 'credit_card' || input.creditCard !== undefined, { message: messages.paymentProviders.cardRequired, path: ['creditCard'] });
export type PlanChangeRequest = z.input<typeof planChangeRequestSchema>;
export type PlanChangeRequestValues = z.output<typeof planChangeRequestSchema>;

/** What POST answers: the change, and for an upgrade its charge to pay. */
export const planChangeResponseSchema = z.object({ change: planChangeSchema });
