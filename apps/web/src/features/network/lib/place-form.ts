import { networkPlaceFormSchema, type NetworkPlace, type NetworkPlaceForm } from '@carteirinha/shared/contracts/network';
import { formatPhone } from '@carteirinha/shared/format';
import { saoPauloDay } from '@carteirinha/shared/sao-paulo-time';
import { z } from 'zod';
import { coordinateText, typedCoordinate } from './geo';

/** What the 'Novo Local' / 'Editar Local' form holds: text as typed (services one per line, coordinates with a comma). */
export type PlaceFormFields = {
  name: string;
  category: string;
  address: string;
  phone: string;
  hours: string;
  services: string;
  latitude: string;
  longitude: string;
  lastConfirmedOn: string;
};

const FIELD_NAMES = ['name', 'category', 'address', 'phone', 'hours', 'services', 'latitude', 'longitude', 'lastConfirmedOn'] as const;

function fieldOf(path: PropertyKey | undefined): keyof PlaceFormFields {
  return FIELD_NAMES.find((field) => field === path) ?? 'name';
}

/** The services typed one per line, blank lines dropped. */
function servicesOf(typed: string): string[] {
  return typed
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * The form checked by `networkPlaceFormSchema` itself — what the API receives — with each message on the field the
 * person typed, so the form and the server never disagree.
 */
export const placeFormFieldsSchema = z
  .object({
    name: z.string(),
    category: z.string(),
    address: z.string(),
    phone: z.string(),
    hours: z.string(),
    services: z.string(),
    latitude: z.string(),
    longitude: z.string(),
    lastConfirmedOn: z.string(),
  })
  .transform((fields, ctx): NetworkPlaceForm => {
    const parsed = networkPlaceFormSchema.safeParse({
      ...fields,
      services: servicesOf(fields.services),
      latitude: typedCoordinate(fields.latitude),
      longitude: typedCoordinate(fields.longitude),
    });
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: [fieldOf(issue.path[0])], message: issue.message });
    return z.NEVER;
  });

/** The form filled with a place to edit, or empty (confirmed today) for a new one. */
export function placeFormFieldsOf(place: NetworkPlace | null, now: Date): PlaceFormFields {
  if (!place) {
    return { name: '', category: '', address: '', phone: '', hours: '', services: '', latitude: '', longitude: '', lastConfirmedOn: saoPauloDay(now) };
  }
  return {
    name: place.name,
    category: place.category,
    address: place.address,
    // Masked as the field shows a typed number once left.
    phone: place.phone ? formatPhone(place.phone) : '',
    hours: place.hours ?? '',
    services: place.services.join('\n'),
    latitude: coordinateText(place.latitude),
    longitude: coordinateText(place.longitude),
    lastConfirmedOn: place.lastConfirmedOn,
  };
}
