import { z } from 'zod';
import { keysetListQuerySchema } from './pagination.ts';
import { SERVICE_CATEGORIES } from './services.ts';

/** A visit's (atendimento's) progress at the clinic (specification §4: aguardando, em andamento, concluído). */
export const VISIT_STATUSES = ['aguardando', 'em_andamento', 'concluido'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  aguardando: 'Aguardando',
  em_andamento: 'Em andamento',
  concluido: 'Concluído',
};

/** One visit (atendimento), as the clinic's Atendimentos list and a patient's history show it. */
export const visitSchema = z.object({
  id: z.uuid(),
  performedAt: z.iso.datetime({ offset: true }),
  patientName: z.string(),
  cardNumber: z.string(),
  serviceName: z.string(),
  category: z.enum(SERVICE_CATEGORIES),
  originalCents: z.number().int(),
  discountPercent: z.number().int(),
  discountCents: z.number().int(),
  finalCents: z.number().int(),
  status: z.enum(VISIT_STATUSES),
  /** Called off after it was recorded: it gave no discount (a 7-day withdrawal does not count it). */
  canceledAt: z.iso.datetime({ offset: true }).nullable(),
  /**
   * When the subscription the visit was made under was withdrawn within the 7 days (CDC art. 49): the clinic sees
   * which visits came before a withdrawal, whose discounts were kept back from the refund.
   */
  subscriptionWithdrawnAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Visit = z.infer<typeof visitSchema>;

/**
 * POST /api/clinic/visits (Registrar Atendimento): the validated card and either a service of the price list or one
 * typed with its category and price. The discount is the card's plan's for that category, computed on the server.
 */
export const createVisitRequestSchema = z.object({
  cardId: z.uuid(),
  serviceId: z.uuid().optional(),
  serviceName: z.string().trim().min(2).max(120).optional(),
  category: z.enum(SERVICE_CATEGORIES).optional(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  status: z.enum(VISIT_STATUSES).default('concluido'),
});
export type CreateVisitRequest = z.infer<typeof createVisitRequestSchema>;

/** GET /api/clinic/visits: the clinic's visits, newest first; `q` searches the patient's name and the service, `cardId` is 'Ver Histórico'. */
export const visitListQuerySchema = keysetListQuerySchema.extend({ cardId: z.uuid().optional() });
export type VisitListQuery = z.infer<typeof visitListQuerySchema>;
