import { z } from 'zod';
import { messages } from '../messages.ts';
import { calendarDaySchema } from './reports.ts';

const m = messages.services;

/** The three kinds of service a plan discounts (DESIGN.md §2: consultas / exames / procedimentos). */
export const SERVICE_CATEGORIES = ['consulta', 'exame', 'procedimento'] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

export const SERVICE_CATEGORY_LABELS: Record<ServiceCategory, string> = {
  consulta: 'Consulta',
  exame: 'Exame',
  procedimento: 'Procedimento',
};

/** A plan's discounts by category, as the plan stores them (whole percent). */
export type CategoryDiscounts = Record<'consultas' | 'exames' | 'procedimentos', number>;

/** The plan's discount for a category of service (DESIGN.md §2). */
export function categoryDiscountOf(discounts: CategoryDiscounts, category: ServiceCategory): number {
  switch (category) {
    case 'consulta':
      return discounts.consultas;
    case 'exame':
      return discounts.exames;
    case 'procedimento':
      return discounts.procedimentos;
  }
}

/**
 * The discount a card gives on a service (issue 25): the service's own discount where the clinic set one — it wins —
 * else the plan's for the service's category.
 */
export function serviceDiscountOf(service: { category: ServiceCategory; discountPercent: number | null }, plan: CategoryDiscounts): number {
  return service.discountPercent ?? categoryDiscountOf(plan, service.category);
}

/** A price less a discount: the discount rounded to the cent (half up), the final value what is left. */
export function discountedAmountsOf(originalCents: number, discountPercent: number): { discountCents: number; finalCents: number } {
  const discountCents = Math.round((originalCents * discountPercent) / 100);
  return { discountCents, finalCents: originalCents - discountCents };
}

/** A service's card price with one plan on sale. */
export const cardPriceSchema = z.object({
  planId: z.uuid(),
  planName: z.string(),
  discountPercent: z.number().int(),
  cardPriceCents: z.number().int(),
});
export type CardPrice = z.infer<typeof cardPriceSchema>;

export const serviceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  category: z.enum(SERVICE_CATEGORIES),
  priceCents: z.number().int(),
  /** The service's own discount; null when each plan's category discount applies. */
  discountPercent: z.number().int().nullable(),
  /** false once archived (a service visits used is archived, not deleted). */
  isActive: z.boolean(),
  /** The card price with each plan on sale. */
  cardPrices: z.array(cardPriceSchema),
});
export type Service = z.infer<typeof serviceSchema>;
export const serviceListSchema = z.object({ items: z.array(serviceSchema) });

/** POST and PUT /api/clinic/services: a service of the clinic's price list (clinic_admin). */
export const serviceFormSchema = z.object({
  name: z.string(m.nameRequired).trim().min(2, m.nameRequired).max(120, messages.clinicSettings.tooLong),
  category: z.enum(SERVICE_CATEGORIES, m.categoryRequired),
  priceCents: z.number(m.priceInvalid).int(m.priceInvalid).min(0, m.priceInvalid).max(100_000_000, m.priceInvalid),
  discountPercent: z.number(m.discountInvalid).int(m.discountInvalid).min(0, m.discountInvalid).max(100, m.discountInvalid).nullable().default(null),
});
export type ServiceForm = z.output<typeof serviceFormSchema>;
export type ServiceFormInput = z.input<typeof serviceFormSchema>;

/** DELETE /api/clinic/services/:id: removed, or archived because visits used it. */
export const serviceRemovalSchema = z.object({ outcome: z.enum(['deleted', 'archived']) });
export type ServiceRemoval = z.infer<typeof serviceRemovalSchema>;

/** One stretch of time of a service's price: the full price (`planId` null) or one plan's card price. */
export const priceHistoryEntrySchema = z.object({
  planId: z.uuid().nullable(),
  planName: z.string().nullable(),
  serviceName: z.string(),
  category: z.enum(SERVICE_CATEGORIES),
  fullPriceCents: z.number().int(),
  discountPercent: z.number().int().nullable(),
  cardPriceCents: z.number().int().nullable(),
  validFrom: z.iso.datetime({ offset: true }),
  /** null while it is the current price. */
  validTo: z.iso.datetime({ offset: true }).nullable(),
});
export type PriceHistoryEntry = z.infer<typeof priceHistoryEntrySchema>;
export const priceHistorySchema = z.object({ items: z.array(priceHistoryEntrySchema) });

/** GET /api/public/price-table?date=: the table as it was at the end of that day (São Paulo); today without one. */
export const priceTableQuerySchema = z.object({ date: calendarDaySchema.optional() });
export type PriceTableQuery = z.infer<typeof priceTableQuerySchema>;

/** The clinic's public price table: its plans on sale then, and each service's full and card prices. */
export const priceTableSchema = z.object({
  /** The day the table is of (São Paulo). */
  date: z.string(),
  plans: z.array(z.object({ id: z.uuid(), name: z.string() })),
  items: z.array(
    z.object({
      serviceId: z.uuid(),
      name: z.string(),
      category: z.enum(SERVICE_CATEGORIES),
      fullPriceCents: z.number().int(),
      /** One per plan of `plans` that had a price for it then. */
      cardPrices: z.array(z.object({ planId: z.uuid(), discountPercent: z.number().int(), cardPriceCents: z.number().int() })),
    }),
  ),
});
export type PriceTable = z.infer<typeof priceTableSchema>;
