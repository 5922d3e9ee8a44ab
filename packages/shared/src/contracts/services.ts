import { z } from 'zod';

/** The three kinds of service a plan discounts (DESIGN.md §2: consultas / exames / procedimentos). */
export const SERVICE_CATEGORIES = ['consulta', 'exame', 'procedimento'] as const;
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];

export const SERVICE_CATEGORY_LABELS: Record<ServiceCategory, string> = {
  consulta: 'Consulta',
  exame: 'Exame',
  procedimento: 'Procedimento',
};

export const serviceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  category: z.enum(SERVICE_CATEGORIES),
  priceCents: z.number().int(),
  isActive: z.boolean(),
});
export type Service = z.infer<typeof serviceSchema>;
export const serviceListSchema = z.object({ items: z.array(serviceSchema) });

/** POST /api/clinic/services: a service of the clinic's price list (clinic_admin). */
export const serviceFormSchema = z.object({
  name: z.string().trim().min(2).max(120),
  category: z.enum(SERVICE_CATEGORIES),
  priceCents: z.number().int().min(0).max(100_000_000),
});
export type ServiceForm = z.infer<typeof serviceFormSchema>;
