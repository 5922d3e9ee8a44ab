import { z } from 'zod';
import { patientCardSchema } from './cards.ts';

const isoInstant = z.iso.datetime({ offset: true });

/** A phone or computer enrolled for the offline card, as its patient sees it (/paciente/app). */
export const cardDeviceSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  createdAt: isoInstant,
  /** The last time the device reached the server while online. */
  confirmedAt: isoInstant,
  /** The last time a clinic validated a code this device showed. */
  lastUsedAt: isoInstant.nullable(),
});
export type CardDevice = z.infer<typeof cardDeviceSchema>;

export const cardDeviceListSchema = z.object({ items: z.array(cardDeviceSchema), max: z.number().int() });
export type CardDeviceList = z.infer<typeof cardDeviceListSchema>;

/** POST /api/patient/card-devices: enrol this device; the name is the patient's (prefilled from the browser). */
export const enrolCardDeviceRequestSchema = z.object({
  name: z.string().trim().min(1).max(60),
});
export type EnrolCardDeviceRequest = z.infer<typeof enrolCardDeviceRequestSchema>;

/** What the device keeps to show codes offline: when the server last confirmed its cards, and until when that holds. */
const offlineStandingSchema = z.object({
  confirmedAt: isoInstant,
  /** confirmedAt + 72 h: past it the device shows no code until it reaches the server again. */
  offlineCodesUntil: isoInstant,
  cards: z.array(patientCardSchema),
});
export type OfflineStanding = z.infer<typeof offlineStandingSchema>;

/**
 * The enrolment's answer: the device's secret, given this once (base64url, 32 bytes) to be imported as a
 * non-extractable Web Crypto key, its slot (in the QR) and the cards it now shows offline.
 */
export const enrolCardDeviceResponseSchema = offlineStandingSchema.extend({
  device: cardDeviceSchema,
  slot: z.number().int(),
  secret: z.string(),
});
export type EnrolCardDeviceResponse = z.infer<typeof enrolCardDeviceResponseSchema>;

/** POST /api/patient/card-devices/:id/check-in: the device is online; the server confirms the cards it may show. */
export const cardDeviceCheckInSchema = offlineStandingSchema;
export type CardDeviceCheckIn = z.infer<typeof cardDeviceCheckInSchema>;
