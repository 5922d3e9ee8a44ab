import { z } from 'zod';
import { adminClinicSchema } from './clinics.ts';

export const ALERT_KINDS = ['trial_ending', 'overdue_payments', 'suspended', 'pending_approval'] as const;

/** GET /api/admin/dashboard: the four KPIs, the newest clinics and what needs the admin's attention. */
export const adminDashboardSchema = z.object({
  kpis: z.object({
    activeClinics: z.number().int(),
    totalPatients: z.number().int(),
    activeSubscriptions: z.number().int(),
    /** The platform's monthly recurring revenue from active clinics' plans, in cents. */
    monthlyRevenueCents: z.number().int(),
  }),
  recentClinics: z.array(adminClinicSchema),
  alerts: z.array(
    z.object({
      kind: z.enum(ALERT_KINDS),
      clinicId: z.uuid(),
      clinicName: z.string(),
      /** trial end for trial_ending and pending_approval; null otherwise. */
      date: z.iso.datetime({ offset: true }).nullable(),
    }),
  ),
});
export type AdminDashboard = z.infer<typeof adminDashboardSchema>;
