import { z } from 'zod';
import { messages } from '../messages.ts';
import { keysetListQuerySchema } from './pagination.ts';

export const CLINIC_STATUSES = ['active', 'trial', 'suspended', 'cancelled'] as const;
export type ClinicStatus = (typeof CLINIC_STATUSES)[number];

/** pt-BR label of each clinic status (specification §4). */
export const CLINIC_STATUS_LABELS: Record<ClinicStatus, string> = {
  active: 'Ativa',
  trial: 'Trial',
  suspended: 'Suspensa',
  cancelled: 'Cancelada',
};

export const clinicSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  cnpj: z.string(),
  slug: z.string(),
  domain: z.string().nullable(),
  status: z.enum(CLINIC_STATUSES),
  planId: z.uuid().nullable(),
  planName: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  patientCount: z.number().int(),
  trialEndsAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Clinic = z.infer<typeof clinicSchema>;

/** A platform clinic as the admin list shows it: with its revenue (payments received for its programme). */
export const adminClinicSchema = clinicSchema.extend({
  /** Cents received; null when the clinic has no payments yet (shown as '-'). */
  revenueCents: z.number().int().nullable(),
  /** When the platform accepted it; null for a self-service sign-up still awaiting 'Aprovar Cadastro'. */
  approvedAt: z.iso.datetime({ offset: true }).nullable(),
  /** The address of its site: its own domain, or `<slug>.<main domain>` (same scheme and port as the platform). */
  url: z.string(),
});
export type AdminClinic = z.infer<typeof adminClinicSchema>;

/** GET /api/admin/clinics: the search and page, and optionally only the sign-ups awaiting approval. */
export const adminClinicListQuerySchema = keysetListQuerySchema.extend({
  /** `true`: clinics in trial that signed up on their own and were not approved yet ('Aprovar Cadastro'). */
  awaitingApproval: z.stringbool(messages.validation.invalidRequest).optional(),
});
export type AdminClinicListQuery = z.infer<typeof adminClinicListQuerySchema>;

/** The four cards of /admin/clinicas, counted by the server. */
export const clinicSummarySchema = z.object({
  total: z.number().int(),
  active: z.number().int(),
  /** Whole percent of `total`, rounded down (199 of 200 reads 99 %, never 100 %); 0 when there are no clinics. */
  activePercent: z.number().int(),
  trial: z.number().int(),
  suspended: z.number().int(),
});
export type ClinicSummary = z.infer<typeof clinicSummarySchema>;

/** "Visualizar": one clinic with the numbers an admin asks about first. */
export const clinicDetailSchema = adminClinicSchema.extend({
  displayName: z.string().nullable(),
  primaryColor: z.string().nullable(),
  logoUrl: z.string().nullable(),
  staffCount: z.number().int(),
  subscriptionPlanCount: z.number().int(),
  activeSubscriptionCount: z.number().int(),
});
export type ClinicDetail = z.infer<typeof clinicDetailSchema>;
