import { z } from 'zod';
import { messages } from '../messages.ts';
import { phoneSchema } from '../validators.ts';
import { listQuerySchema, pageOf } from './pagination.ts';
import { calendarDaySchema } from './reports.ts';

const m = messages.network;

/**
 * The kinds of accredited place (DESIGN.md §2 `network_places`): the clinic's own units, partner clinics and
 * laboratories. The platform plan's `max_clinics` counts the partners — every place that is not an own unit (ADR 024).
 */
export const NETWORK_CATEGORIES = ['unidade_propria', 'clinica_parceira', 'laboratorio'] as const;
export type NetworkCategory = (typeof NETWORK_CATEGORIES)[number];

export const NETWORK_CATEGORY_LABELS: Record<NetworkCategory, string> = m.categories;

/** Whether a place of this category counts against the platform plan's `max_clinics` (ADR 024). */
export function isPartnerCategory(category: NetworkCategory): boolean {
  return category !== 'unidade_propria';
}

export const NETWORK_SERVICES_MAX = 30;

const serviceNameSchema = z.string().trim().min(2, m.serviceInvalid).max(80, m.serviceInvalid);

/** A latitude or longitude in decimal degrees, within its range. */
function coordinateSchema(limit: number, message: string) {
  return z.number(message).finite(message).min(-limit, message).max(limit, message);
}
export const latitudeSchema = coordinateSchema(90, m.latitudeInvalid);
export const longitudeSchema = coordinateSchema(180, m.longitudeInvalid);

/** Optional text: blank is null. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, messages.clinicSettings.tooLong)
    .nullable()
    .default(null)
    .transform((value) => (value === null || value === '' ? null : value));
}

/** POST and PUT /api/clinic/network: one accredited place (clinic_admin). */
export const networkPlaceFormSchema = z.object({
  name: z.string(m.nameRequired).trim().min(2, m.nameRequired).max(120, messages.clinicSettings.tooLong),
  category: z.enum(NETWORK_CATEGORIES, m.categoryRequired),
  address: z.string(m.addressRequired).trim().min(5, m.addressRequired).max(200, messages.clinicSettings.tooLong),
  phone: z
    .union([z.literal(''), phoneSchema])
    .nullable()
    .default(null)
    .transform((value) => (value === '' ? null : value)),
  hours: optionalText(120),
  /** What the place offers, as the clinic writes it ('Consultas', 'Hemograma'): partners' services are not on its price list. */
  services: z.array(serviceNameSchema).max(NETWORK_SERVICES_MAX, m.tooManyServices).default([]),
  latitude: latitudeSchema,
  longitude: longitudeSchema,
  /** The day the clinic last confirmed the place's details (not after today, São Paulo; the server checks). */
  lastConfirmedOn: calendarDaySchema,
});
export type NetworkPlaceForm = z.output<typeof networkPlaceFormSchema>;
export type NetworkPlaceFormInput = z.input<typeof networkPlaceFormSchema>;

export const networkPlaceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  category: z.enum(NETWORK_CATEGORIES),
  address: z.string(),
  phone: z.string().nullable(),
  hours: z.string().nullable(),
  services: z.array(z.string()),
  latitude: z.number(),
  longitude: z.number(),
  lastConfirmedOn: z.iso.date(),
});
export type NetworkPlace = z.infer<typeof networkPlaceSchema>;

/** How many partner places the platform plan allows (null: no limit) and how many the clinic has. */
export const partnerLimitSchema = z.object({ max: z.number().int().nullable(), used: z.number().int() });
export type PartnerLimit = z.infer<typeof partnerLimitSchema>;

/** GET /api/clinic/network: a page of the clinic's places, searched, with the partner limit. */
export const clinicNetworkPageSchema = pageOf(networkPlaceSchema).extend({ partnerLimit: partnerLimitSchema });
export type ClinicNetworkPage = z.infer<typeof clinicNetworkPageSchema>;

export const networkRemovalSchema = z.object({ id: z.uuid() });

/** GET /api/patient/network: search by name, category or address; with lat and lng, nearest first. */
export const patientNetworkQuerySchema = listQuerySchema
  .extend({
    lat: z.coerce.number().pipe(latitudeSchema).optional(),
    lng: z.coerce.number().pipe(longitudeSchema).optional(),
  })
  .refine((query) => (query.lat === undefined) === (query.lng === undefined), { path: ['lat'], message: m.positionIncomplete });
export type PatientNetworkQuery = z.infer<typeof patientNetworkQuerySchema>;

/** A place as the patient reads it: the distance in km from the position sent, when one was. */
export const patientNetworkPlaceSchema = networkPlaceSchema.extend({ distanceKm: z.number().nullable() });
export type PatientNetworkPlace = z.infer<typeof patientNetworkPlaceSchema>;
/** `priceTableUrl`: the public price table on the clinic's own site, where the patient sees the card prices. */
export const patientNetworkPageSchema = pageOf(patientNetworkPlaceSchema).extend({ priceTableUrl: z.string() });
export type PatientNetworkPage = z.infer<typeof patientNetworkPageSchema>;
