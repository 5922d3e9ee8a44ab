import { z } from 'zod';
import { messages } from '../messages.ts';
import { cepSchema, phoneSchema } from '../validators.ts';
import { keysetListQuerySchema } from './pagination.ts';
import { graceDaysSchema } from './payments.ts';

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

const cs = messages.clinicSettings;

/** A time of day as the clinic types it, 'HH:MM' on the 24-hour clock. */
const timeOfDaySchema = z.string(cs.timeInvalid).regex(/^([01]\d|2[0-3]):[0-5]\d$/, cs.timeInvalid);

/** One opening period: closing after opening ('HH:MM' compares as text in time order). */
export const openingPeriodSchema = z
  .object({ open: timeOfDaySchema, close: timeOfDaySchema })
  .refine((period) => period.open < period.close, { path: ['close'], message: cs.closeAfterOpen });

/** Opening hours (specification §2: Mon–Fri, Saturday): each open–close, or null when closed. */
export const openingHoursSchema = z.object({ weekdays: openingPeriodSchema.nullable(), saturday: openingPeriodSchema.nullable() });
export type OpeningHours = z.infer<typeof openingHoursSchema>;

/** Configurações' switches: each turns one e-mail to the clinic's patients off. */
export const CLINIC_NOTIFICATIONS = ['paymentConfirmed', 'reminderBefore', 'reminderDue', 'overdue'] as const;
export type ClinicNotification = (typeof CLINIC_NOTIFICATIONS)[number];
export const clinicNotificationsSchema = z.object({
  paymentConfirmed: z.boolean(),
  reminderBefore: z.boolean(),
  reminderDue: z.boolean(),
  overdue: z.boolean(),
});
export type ClinicNotifications = z.infer<typeof clinicNotificationsSchema>;

/** Optional text: trimmed, at most `max` characters; empty is none. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, cs.tooLong)
    .nullish()
    .transform((value) => value || null);
}

/** An optional field that is checked only when typed (empty is none). */
function optionalChecked<T extends z.ZodType<string, string>>(schema: T) {
  return z
    .string()
    .trim()
    .nullish()
    .transform((value) => value || null)
    .pipe(schema.nullable());
}

/** PUT /api/clinic/settings: the clinic's data, opening hours, notification switches and grace period. */
export const clinicSettingsFormSchema = z.object({
  name: z.string(cs.nameRequired).trim().min(2, cs.nameRequired).max(120, cs.tooLong),
  phone: optionalChecked(phoneSchema),
  contactEmail: optionalChecked(z.email(messages.validation.invalidEmail)),
  postalCode: optionalChecked(cepSchema),
  street: optionalText(160),
  streetNumber: optionalText(20),
  addressComplement: optionalText(80),
  district: optionalText(80),
  city: optionalText(80),
  state: z
    .string(cs.stateInvalid)
    .trim()
    .toUpperCase()
    .refine((value) => value === '' || /^[A-Z]{2}$/.test(value), cs.stateInvalid)
    .nullish()
    .transform((value) => value || null),
  openingHours: openingHoursSchema,
  notifications: clinicNotificationsSchema,
  graceDays: graceDaysSchema,
});
export type ClinicSettingsFormInput = z.input<typeof clinicSettingsFormSchema>;
export type ClinicSettingsForm = z.output<typeof clinicSettingsFormSchema>;

/** GET /api/clinic/settings: what the form shows, with the CNPJ (read-only) and the site's address. */
export const clinicSettingsSchema = z.object({
  name: z.string(),
  cnpj: z.string(),
  siteUrl: z.string(),
  phone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  postalCode: z.string().nullable(),
  street: z.string().nullable(),
  streetNumber: z.string().nullable(),
  addressComplement: z.string().nullable(),
  district: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  openingHours: openingHoursSchema,
  notifications: clinicNotificationsSchema,
  graceDays: z.number().int(),
});
export type ClinicSettings = z.infer<typeof clinicSettingsSchema>;

/** What the clinic's site shows about it beside its plans: opening hours and how to reach it. */
export const clinicContactSchema = z.object({
  openingHours: openingHoursSchema.nullable(),
  phone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  address: z.string().nullable(),
});
export type ClinicContact = z.infer<typeof clinicContactSchema>;
