import { z } from 'zod';
import { messages } from '../messages.ts';
import { keysetListQuerySchema } from './pagination.ts';
import { calendarDaySchema } from './reports.ts';
import { SERVICE_CATEGORIES } from './services.ts';

/**
 * A visit's (atendimento's) progress at the clinic (specification §4: aguardando, em andamento, concluído), and
 * cancelado for one that did not happen (issue 25: cancelled with a reason).
 */
export const VISIT_STATUSES = ['aguardando', 'em_andamento', 'concluido', 'cancelado'] as const;
export type VisitStatus = (typeof VISIT_STATUSES)[number];

export const VISIT_STATUS_LABELS: Record<VisitStatus, string> = {
  aguardando: 'Aguardando',
  em_andamento: 'Em andamento',
  concluido: 'Concluído',
  cancelado: 'Cancelado',
};

/**
 * Where a visit may go from each status: aguardando → em andamento → concluído, and cancelled (with a reason) at any
 * step — a concluded visit too, when it was recorded by mistake: it then stops counting as a discount received (the
 * 7-day withdrawal keeps back only the discounts of visits that happened). A cancelled visit is final.
 */
export const VISIT_TRANSITIONS: Record<VisitStatus, readonly VisitStatus[]> = {
  aguardando: ['em_andamento', 'cancelado'],
  em_andamento: ['concluido', 'cancelado'],
  concluido: ['cancelado'],
  cancelado: [],
};

/** Whether a visit in `from` may move to `to`. */
export function canMoveVisit(from: VisitStatus, to: VisitStatus): boolean {
  return VISIT_TRANSITIONS[from].includes(to);
}

/** One visit (atendimento), as the clinic's Atendimentos list and a patient's history show it. */
export const visitSchema = z.object({
  id: z.uuid(),
  /** When it happens: the moment of a walk-in, the appointment's time of a booking. */
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
  /** Booked ahead (the patient's next appointment): when the booking was made; null for a walk-in. */
  bookedAt: z.iso.datetime({ offset: true }).nullable(),
  professional: z.string().nullable(),
  cancelReason: z.string().nullable(),
  /** Who registered it, by name (null once that account is gone). */
  registeredBy: z.string().nullable(),
});
export type Visit = z.infer<typeof visitSchema>;

const s = messages.visitsScreen;
/** How far ahead a visit may be booked. */
export const BOOKING_MAX_DAYS = 366;

/**
 * POST /api/clinic/visits (Registrar Atendimento): the validated card and either a service of the price list or one
 * typed with its category and price. The discount is the service's own or the card's plan's for that category,
 * computed on the server. With `scheduledFor` the visit is booked ahead as 'aguardando' (date, time, professional).
 */
export const createVisitRequestSchema = z.object({
  cardId: z.uuid(),
  serviceId: z.uuid().optional(),
  serviceName: z.string().trim().min(2).max(120).optional(),
  category: z.enum(SERVICE_CATEGORIES).optional(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  status: z.enum(VISIT_STATUSES).default('concluido'),
  scheduledFor: z.iso.datetime({ offset: true }).optional(),
  professional: z.string().trim().max(120).optional(),
});
export type CreateVisitRequest = z.input<typeof createVisitRequestSchema>;
export type CreateVisitInput = z.output<typeof createVisitRequestSchema>;

/** The status filter of Atendimentos: the values of VISIT_STATUSES. */
const visitFiltersShape = {
  status: z.enum(VISIT_STATUSES).optional(),
  serviceId: z.uuid().optional(),
  /** Who registered it (a member of the clinic's team). */
  registeredBy: z.uuid().optional(),
  from: calendarDaySchema.optional(),
  to: calendarDaySchema.optional(),
};

/** A period's first day is not after its last (São Paulo days, both included). */
export function periodInOrder(value: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.from && value.to && value.from > value.to) ctx.addIssue({ code: 'custom', path: ['from'], message: s.periodInvalid });
}

/**
 * GET /api/clinic/visits: the clinic's visits, newest first; `q` searches the patient's name and the service, `cardId`
 * is 'Ver Histórico', and 'Filtros' narrows by status, service, who registered and the period (São Paulo days, both
 * included).
 */
export const visitListQuerySchema = keysetListQuerySchema.extend({ cardId: z.uuid().optional(), ...visitFiltersShape }).superRefine(periodInOrder);
export type VisitListQuery = z.infer<typeof visitListQuerySchema>;

/** GET /api/clinic/visits.csv: 'Exportar', with the list's search and filters. */
export const visitExportQuerySchema = z.object({ q: z.string().trim().max(200).optional(), ...visitFiltersShape }).superRefine(periodInOrder);
export type VisitExportQuery = z.infer<typeof visitExportQuerySchema>;

/** PATCH /api/clinic/visits/:id/status: the next status, and the reason when it is cancelled. */
export const visitStatusChangeSchema = z
  .object({
    status: z.enum(VISIT_STATUSES),
    reason: z.string().trim().max(300).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.status === 'cancelado' && (value.reason ?? '').length < 3) ctx.addIssue({ code: 'custom', path: ['reason'], message: s.cancelReasonRequired });
  });
export type VisitStatusChange = z.infer<typeof visitStatusChangeSchema>;

/** The team members that registered visits, for the 'Registrado por' filter. */
export const visitRegistrarsSchema = z.object({ items: z.array(z.object({ userId: z.uuid(), name: z.string() })) });
export type VisitRegistrars = z.infer<typeof visitRegistrarsSchema>;
