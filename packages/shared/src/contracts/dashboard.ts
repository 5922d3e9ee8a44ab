import { z } from 'zod';
import { adminClinicSchema } from './clinics.ts';
import { visitSchema } from './visits.ts';

export const ALERT_KINDS = ['payment_held', 'webhook_failed', 'trial_ending', 'overdue_payments', 'suspended', 'pending_approval'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** A clinic in the dashboard's "Clínicas Recentes": what the list shows of it. */
export const recentClinicSchema = adminClinicSchema.pick({ id: true, name: true, status: true, createdAt: true });
export type RecentClinic = z.infer<typeof recentClinicSchema>;

export const dashboardAlertSchema = z.object({
  kind: z.enum(ALERT_KINDS),
  /** The clinic it concerns; null only for a failed provider event that names no charge of any clinic. */
  clinicId: z.uuid().nullable(),
  clinicName: z.string().nullable(),
  /**
   * trial end for trial_ending and pending_approval; the oldest unpaid due date for overdue_payments; the first held
   * settlement for payment_held (issue 22: less than the charge reported paid); the first event whose processing
   * failed on its last attempt for webhook_failed; else null.
   */
  date: z.iso.datetime({ offset: true }).nullable(),
});
export type DashboardAlert = z.infer<typeof dashboardAlertSchema>;

/** GET /api/admin/dashboard: the four KPIs, the newest clinics and what needs the admin's attention. */
export const adminDashboardSchema = z.object({
  kpis: z.object({
    activeClinics: z.number().int(),
    totalPatients: z.number().int(),
    activeSubscriptions: z.number().int(),
    /** The platform's monthly recurring revenue from active clinics' plans, in cents. */
    monthlyRevenueCents: z.number().int(),
  }),
  recentClinics: z.array(recentClinicSchema),
  /**
   * Money that needs a look first (held settlements, provider events that failed), then overdue payments, trials
   * ending, sign-ups awaiting approval and suspensions; a few of each kind.
   */
  alerts: z.array(dashboardAlertSchema),
  /** How many clinics each kind of alert concerns in all, so the card can say how many it does not list. */
  alertTotals: z.record(z.enum(ALERT_KINDS), z.number().int()),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;

/** GET /api/admin/dashboard/mrr-history: the platform's MRR at the end of each of the last 12 months (ADR 005). */
export const mrrHistorySchema = z.object({
  months: z.array(z.object({ month: z.string(), mrrCents: z.number().int() })),
});
export type MrrHistory = z.infer<typeof mrrHistorySchema>;

/** GET /api/clinic/dashboard: the four KPIs of the clinic's Dashboard (specification §2) and its recent visits. */
export const clinicDashboardSchema = z.object({
  kpis: z.object({
    /** Visits of today (São Paulo), booked or done, not cancelled. */
    appointmentsToday: z.number().int(),
    /** Holders of an active subscription and their dependents. */
    activePatients: z.number().int(),
    /** Final values of today's concluded visits. */
    revenueTodayCents: z.number().int(),
    /** Patients who signed up in the last 30 days, and how many of them hold an active subscription now. */
    conversion: z.object({ signUps: z.number().int(), converted: z.number().int(), ratePercent: z.number().nullable() }),
  }),
  recentVisits: z.array(visitSchema),
});
export type ClinicDashboard = z.infer<typeof clinicDashboardSchema>;

/** GET /api/clinic/dashboard/charts: the last 12 weeks, per São Paulo day and per week (Monday to Sunday). */
export const clinicChartsSchema = z.object({
  days: z.array(z.object({ day: z.string(), visits: z.number().int(), validations: z.number().int() })),
  weeks: z.array(z.object({ weekStart: z.string(), visitRevenueCents: z.number().int(), subscriptionRevenueCents: z.number().int() })),
});
export type ClinicCharts = z.infer<typeof clinicChartsSchema>;

export const FIRST_STEPS = ['reviewPlan', 'reviewTerms', 'connectPayments', 'branding', 'firstService', 'firstTeamMember', 'firstValidation'] as const;
export type FirstStep = (typeof FIRST_STEPS)[number];

/** GET /api/clinic/first-steps: the checklist of a new clinic, each step ticked by what the clinic already did. */
export const firstStepsSchema = z.object({
  siteUrl: z.string(),
  clinicName: z.string(),
  awaitingApproval: z.boolean(),
  steps: z.array(z.object({ key: z.enum(FIRST_STEPS), done: z.boolean() })),
});
export type FirstSteps = z.infer<typeof firstStepsSchema>;
