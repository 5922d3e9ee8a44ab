import { z } from 'zod';
import { listQuerySchema, pageOf } from './pagination.ts';

/** A payout's (repasse's) way to the clinic (specification §4: pendente, processando, pago). */
export const PAYOUT_STATUSES = ['pendente', 'processando', 'pago'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * What a line of a payout is: a charge received in the month, or money taken back from a charge — refunded by the
 * clinic, or charged back by the payer's bank — which counts in the month it was taken back, so a payout already paid
 * is never edited (the line goes into the next payout built).
 */
export const PAYOUT_LINE_KINDS = ['recebimento', 'estorno', 'chargeback'] as const;
export type PayoutLineKind = (typeof PAYOUT_LINE_KINDS)[number];

/** A São Paulo month, as yyyy-MM. */
export const payoutPeriodSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

/** One payout: a clinic's money of one São Paulo month, after the platform's fee. */
export const payoutSchema = z.object({
  id: z.uuid(),
  period: payoutPeriodSchema,
  /** Concluded visits of the month. */
  attendances: z.number().int(),
  /** Charges received in the month, less what was refunded or charged back in it (may be below zero). */
  grossCents: z.number().int(),
  feePercent: z.number().int(),
  feeCents: z.number().int(),
  netCents: z.number().int(),
  /**
   * The charges went through the clinic's own Asaas account, whose split already sent the fee to the platform: the
   * net is already in the clinic's account, and the platform transfers nothing (no fee taken twice).
   */
  feeSplitAtProvider: z.boolean(),
  status: z.enum(PAYOUT_STATUSES),
  /** When it was paid (shown as 'Data Pagamento'); null until then. */
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Payout = z.infer<typeof payoutSchema>;

/** One line of a payout: a charge received, refunded or charged back. */
export const payoutLineSchema = z.object({
  id: z.uuid(),
  kind: z.enum(PAYOUT_LINE_KINDS),
  occurredAt: z.iso.datetime({ offset: true }),
  /** Signed: a refund or chargeback is below zero. */
  amountCents: z.number().int(),
  patientName: z.string(),
  /** The month of an earlier payout the money belonged to, when it is carried into this one (a refund after payment). */
  carriedFromPeriod: payoutPeriodSchema.nullable(),
});
export type PayoutLine = z.infer<typeof payoutLineSchema>;

export const payoutDetailSchema = payoutSchema.extend({ lines: z.array(payoutLineSchema) });
export type PayoutDetail = z.infer<typeof payoutDetailSchema>;

/** Financeiro's four cards: this month so far, and the payouts waiting and paid. */
export const clinicFinanceSummarySchema = z.object({
  /** Charges received this São Paulo month so far, less refunds and chargebacks (no payout yet). */
  monthGrossCents: z.number().int(),
  /** Concluded visits this month. */
  monthAttendances: z.number().int(),
  /** Net of the payouts not paid yet (pendente and processando). */
  pendingNetCents: z.number().int(),
  /** Net of the payouts paid in the last twelve months. */
  paidNetCents: z.number().int(),
  /** Whether the clinic's own Asaas account is connected now: its fee goes by split. */
  feeSplitAtProvider: z.boolean(),
  feePercent: z.number().int(),
});
export type ClinicFinanceSummary = z.infer<typeof clinicFinanceSummarySchema>;

export const clinicPayoutListSchema = z.object({ summary: clinicFinanceSummarySchema, items: z.array(payoutSchema) });
export type ClinicPayoutList = z.infer<typeof clinicPayoutListSchema>;

/** The platform admin's list: every clinic's payouts, newest month first, by status. */
export const adminPayoutListQuerySchema = listQuerySchema.extend({ status: z.enum(PAYOUT_STATUSES).optional() });
export type AdminPayoutListQuery = z.infer<typeof adminPayoutListQuerySchema>;

export const adminPayoutSchema = payoutSchema.extend({ clinicId: z.uuid(), clinicName: z.string() });
export type AdminPayout = z.infer<typeof adminPayoutSchema>;

export const adminPayoutPageSchema = pageOf(adminPayoutSchema);
export type AdminPayoutPage = z.infer<typeof adminPayoutPageSchema>;

/** The admin moves a payout on: 'processando' (the transfer is on its way) or 'pago' (the clinic has the money). */
export const payoutStatusChangeSchema = z.strictObject({ status: z.enum(['processando', 'pago']) });
export type PayoutStatusChange = z.infer<typeof payoutStatusChangeSchema>;
