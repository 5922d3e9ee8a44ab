import { z } from 'zod';

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
