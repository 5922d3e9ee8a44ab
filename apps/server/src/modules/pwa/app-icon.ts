import sharp from 'sharp';

const DEFAULT_COLOR = '#0d9488';

/** The brand colour when it is a plain #rrggbb, else the platform's teal. */
export function iconColorOf(primaryColor: string | null): string {
  return primaryColor && /^#[0-9a-fA-F]{6}$/.test(primaryColor) ? primaryColor : DEFAULT_COLOR;
}

/** Up to two initials of the name ("Clínica Demo" → "CD"), for an icon that is the clinic's at a glance. */
export function initialsOf(name: string): string {
  const words = name.split(/\s+/).filter((word) => /^\p{L}/u.test(word) && word.length > 2);
  const picked = (words.length > 0 ? words : name.split(/\s+/)).slice(0, 2);
  return picked.map((word) => word.charAt(0).toLocaleUpperCase('pt-BR')).join('') || '+';
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The app's icon, drawn for the site: the brand colour edge to edge (so one image serves as `any` and `maskable`:
 * the initials sit well inside the 80 % safe zone) and the initials in white.
 */
export async function renderAppIcon(site: { name: string; primaryColor: string | null }, size: number): Promise<Buffer> {
  const initials = escapeXml(initialsOf(site.name));
  const fontSize = Math.round(size * (initials.length > 1 ? 0.34 : 0.44));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" fill="${iconColorOf(site.primaryColor)}"/>
  <text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-weight="700" font-size="${fontSize}" fill="#ffffff">${initials}</text>
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
