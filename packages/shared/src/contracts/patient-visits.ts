import { z } from 'zod';
import { listQuerySchema, pageOf } from './pagination.ts';
import { calendarDaySchema } from './reports.ts';
import { SERVICE_CATEGORIES } from './services.ts';
import { periodInOrder } from './visits.ts';

/**
 * The patient's own visits (issue 27: Início and Histórico). A visit counts in the history once it is concluded: a
 * cancelled one gave no discount, and one still waiting or under way has not been paid for yet.
 */

const periodShape = {
  /** First São Paulo day of the period, included; none: since the first visit. */
  from: calendarDaySchema.optional(),
  /** Last São Paulo day of the period, included; none: up to now. */
  to: calendarDaySchema.optional(),
};

/** GET /api/patient/history/summary: the period of Histórico's tiles, comparison and chart. */
export const patientPeriodQuerySchema = z.object(periodShape).superRefine(periodInOrder);
export type PatientPeriodQuery = z.infer<typeof patientPeriodQuerySchema>;

/** GET /api/patient/history: a page of the period's concluded visits, newest first. */
export const patientHistoryQuerySchema = listQuerySchema.omit({ q: true }).extend(periodShape).superRefine(periodInOrder);
export type PatientHistoryQuery = z.infer<typeof patientHistoryQuerySchema>;

/** One concluded visit of the patient or of one of their dependents, with what it cost and what it saved. */
export const patientVisitSchema = z.object({
  id: z.uuid(),
  performedAt: z.iso.datetime({ offset: true }),
  /** Where it happened: the clinic's name as it shows it to its people. */
  placeName: z.string(),
  serviceName: z.string(),
  category: z.enum(SERVICE_CATEGORIES),
  /** The dependent the visit was for; null for the holder's own. */
  dependentName: z.string().nullable(),
  originalCents: z.number().int(),
  discountPercent: z.number().int(),
  /** The saving: what the card took off the full price. */
  discountCents: z.number().int(),
  /** What the patient paid at the desk. */
  finalCents: z.number().int(),
});
export type PatientVisit = z.infer<typeof patientVisitSchema>;

export const patientHistoryPageSchema = pageOf(patientVisitSchema);
export type PatientHistoryPage = z.infer<typeof patientHistoryPageSchema>;

/** One São Paulo month of the savings chart: what the card saved and what was paid for the plan. */
export const savingsMonthSchema = z.object({
  /** yyyy-MM */
  month: z.string().regex(/^\d{4}-\d{2}$/),
  savedCents: z.number().int(),
  paidForPlanCents: z.number().int(),
});
export type SavingsMonth = z.infer<typeof savingsMonthSchema>;

/** Histórico's tiles, 'você economizou R$ X e pagou R$ Y' and the chart, for the period asked. */
export const patientSavingsSchema = z.object({
  /** Total saved: the sum of the discounts of the period's concluded visits. */
  savedCents: z.number().int(),
  visits: z.number().int(),
  /** The full prices of those visits, of which `savedCents` is `averageSavingPercent` (rounded). */
  originalCents: z.number().int(),
  averageSavingPercent: z.number().int(),
  /** What the patient paid for the plan in the period: their charges paid in it, less what was given back. */
  paidForPlanCents: z.number().int(),
  /** Every month from the first to the last with a visit or a payment in the period, oldest first. */
  months: z.array(savingsMonthSchema),
});
export type PatientSavings = z.infer<typeof patientSavingsSchema>;

/** The next visit booked ahead for the patient or a dependent (status aguardando). */
export const nextAppointmentSchema = z.object({
  id: z.uuid(),
  performedAt: z.iso.datetime({ offset: true }),
  placeName: z.string(),
  serviceName: z.string(),
  professional: z.string().nullable(),
  dependentName: z.string().nullable(),
});
export type NextAppointment = z.infer<typeof nextAppointmentSchema>;

/** GET /api/patient/home: Início's tiles and its latest three visits. */
export const patientHomeSchema = z.object({
  nextAppointment: nextAppointmentSchema.nullable(),
  /** The dependents the holder covers now (removed ones are not). */
  dependents: z.array(z.object({ id: z.uuid(), fullName: z.string() })),
  latestVisits: z.array(patientVisitSchema).max(3),
  /** How many places the programme's accredited network has (Rede Credenciada). */
  networkPlaces: z.number().int().nonnegative(),
});
export type PatientHome = z.infer<typeof patientHomeSchema>;
