/** A point on Earth in decimal degrees. */
export type LatLng = { lat: number; lng: number };

const KM = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A distance as the patient reads it: "1,2" (km, one decimal, the pt-BR way). */
export function formatKm(km: number): string {
  return KM.format(km);
}

/**
 * 'Como Chegar': Google Maps' directions to the place's coordinates from wherever the patient is (its documented
 * `api=1` URL, which opens the app on a phone and the site elsewhere; no key).
 */
export function directionsUrl(place: { latitude: number; longitude: number }): string {
  return `https://www.google.com/maps/dir/?api=1&destination=${place.latitude},${place.longitude}`;
}

/** A coordinate as typed, with a pt-BR comma or a dot; NaN for anything else (the schema then names the field). */
export function typedCoordinate(typed: string): number {
  const trimmed = typed.trim().replace(',', '.');
  return /^[-+]?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A coordinate for the form's field: six decimals (about 10 cm), with the pt-BR comma. */
export function coordinateText(value: number): string {
  return String(Number(value.toFixed(6))).replace('.', ',');
}
