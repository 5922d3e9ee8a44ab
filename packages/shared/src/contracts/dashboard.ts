import { z } from 'zod';
import { adminClinicSchema } from './clinics.ts';

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
