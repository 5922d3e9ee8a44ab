/** A clinic's address is one DNS label of at most 40 characters (slugSchema in packages/shared validators). */
const SLUG_MAX_LENGTH = 40;

/**
 * The address suggested for a clinic's name: lower case, accents dropped, anything else between words turned into
 * one hyphen — "Clínica São José" → "clinica-sao-jose". The server still checks it (reserved, taken).
 */
export function suggestSlug(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
}
