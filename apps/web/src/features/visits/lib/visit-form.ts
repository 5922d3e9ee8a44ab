import type { CategoryDiscounts, Service, ServiceCategory } from '@carteirinha/shared/contracts/services';
import { discountedAmountsOf, SERVICE_CATEGORIES, serviceDiscountOf } from '@carteirinha/shared/contracts/services';
import { VISIT_STATUSES, type CreateVisitRequest } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import { saoPauloInstant } from '@carteirinha/shared/sao-paulo-time';
import { z } from 'zod';
import { typedReaisToCents } from '../../../lib/reais';

const s = messages.cardScreens;
const v = messages.visitsScreen;

/** 'Agora' records the visit as it happens; 'Agendar' books it ahead as 'aguardando' (the patient's next appointment). */
export const VISIT_WHEN = ['now', 'later'] as const;
export type VisitWhen = (typeof VISIT_WHEN)[number];

/** The option of the service list that lets the receptionist type a service not on the price list. */
export const OTHER_SERVICE = 'outro';

/** The largest price the API takes (createVisitRequestSchema: R$ 1.000.000,00). */
const MAX_PRICE_CENTS = 100_000_000;

/** What the form holds: a service of the list, or one typed with its category and price (text, pt-BR reais). */
export const visitFormSchema = z
  .object({
    serviceId: z.string(),
    serviceName: z.string(),
    category: z.enum(SERVICE_CATEGORIES).or(z.literal('')),
    price: z.string(),
    status: z.enum(VISIT_STATUSES),
    when: z.enum(VISIT_WHEN),
    /** The booking's São Paulo day (yyyy-MM-dd) and time (HH:mm), from the browser's date and time inputs. */
    date: z.string(),
    time: z.string(),
    professional: z.string().max(120),
  })
  .superRefine((values, context) => {
    if (values.when === 'later' && (!/^\d{4}-\d{2}-\d{2}$/.test(values.date) || !/^\d{2}:\d{2}$/.test(values.time))) {
      context.addIssue({ code: 'custom', path: [values.date ? 'time' : 'date'], message: v.bookingDateRequired });
    }
    if (values.serviceId === '') {
      context.addIssue({ code: 'custom', path: ['serviceId'], message: s.serviceRequired });
      return;
    }
    if (values.serviceId !== OTHER_SERVICE) return;
    if (values.serviceName.trim().length < 2) context.addIssue({ code: 'custom', path: ['serviceName'], message: s.serviceNameRequired });
    if (values.category === '') context.addIssue({ code: 'custom', path: ['category'], message: s.categoryRequired });
    const cents = typedReaisToCents(values.price);
    if (cents === null || cents < 0 || cents > MAX_PRICE_CENTS) context.addIssue({ code: 'custom', path: ['price'], message: s.priceInvalid });
  });
export type VisitFormValues = z.infer<typeof visitFormSchema>;

export const EMPTY_VISIT_FORM: VisitFormValues = {
  serviceId: '',
  serviceName: '',
  category: '',
  price: '',
  status: 'concluido',
  when: 'now',
  date: '',
  time: '',
  professional: '',
};

/**
 * What the form charges so far (for the live discount), or null while it names nothing: the category and full price,
 * and the service's own discount where the clinic set one (a typed service has none).
 */
export type VisitCharge = { category: ServiceCategory; priceCents: number; discountPercent: number | null };

export function chargeOf(values: VisitFormValues, services: readonly Service[]): VisitCharge | null {
  if (values.serviceId === OTHER_SERVICE) {
    const priceCents = typedReaisToCents(values.price);
    if (values.category === '' || priceCents === null) return null;
    return { category: values.category, priceCents, discountPercent: null };
  }
  const service = services.find((candidate) => candidate.id === values.serviceId);
  return service ? { category: service.category, priceCents: service.priceCents, discountPercent: service.discountPercent } : null;
}

/**
 * The visit's discount and amounts as the server computes them: the service's own discount wins over the plan's for
 * its category (issue 25), rounded to the cent, the final value what is left.
 */
export function visitAmountsOf(charge: VisitCharge, plan: CategoryDiscounts): { discountPercent: number; discountCents: number; finalCents: number } {
  const discountPercent = serviceDiscountOf(charge, plan);
  return { discountPercent, ...discountedAmountsOf(charge.priceCents, discountPercent) };
}

/** When and with whom: now with the chosen status, or booked ahead as 'aguardando' (the server checks the date). */
function timingOf(values: VisitFormValues): Pick<CreateVisitRequest, 'status' | 'scheduledFor' | 'professional'> {
  if (values.when === 'now') return { status: values.status };
  const professional = values.professional.trim();
  return { status: 'aguardando', scheduledFor: saoPauloInstant(values.date, values.time), ...(professional ? { professional } : {}) };
}

/** The POST body of a valid form for the validated card. */
export function visitRequestOf(cardId: string, values: VisitFormValues): CreateVisitRequest {
  const timing = timingOf(values);
  if (values.serviceId !== OTHER_SERVICE) return { cardId, serviceId: values.serviceId, ...timing };
  const category = values.category === '' ? undefined : values.category;
  return {
    cardId,
    serviceName: values.serviceName.trim(),
    category,
    priceCents: typedReaisToCents(values.price) ?? undefined,
    ...timing,
  };
}
