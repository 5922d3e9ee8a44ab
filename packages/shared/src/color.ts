/**
 * Colour arithmetic for a clinic's brand colour (DESIGN.md §2 "White-label"): which text colour reads on it, and how
 * to darken it until it reads as text on a white page. Ratios follow WCAG 2.x (relative luminance, contrast ratio).
 */

export type Rgb = { r: number; g: number; b: number };

/** WCAG AA for normal text. */
export const MIN_TEXT_CONTRAST = 4.5;

const BLACK = '#000000';
const WHITE = '#ffffff';

/** "#0d9488" (either case) → { r: 13, g: 148, b: 136 }; anything that is not `#rrggbb` → null. */
export function parseHexColor(hex: string): Rgb | null {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim());
  if (!match) return null;
  const [, r = '', g = '', b = ''] = match;
  return { r: Number.parseInt(r, 16), g: Number.parseInt(g, 16), b: Number.parseInt(b, 16) };
}

/** { r, g, b } (0–255, rounded and clamped) → "#rrggbb" in lower case. */
export function toHexColor({ r, g, b }: Rgb): string {
  const channel = (value: number) => Math.min(255, Math.max(0, Math.round(value))).toString(16).padStart(2, '0');
  return `#${channel(r)}${channel(g)}${channel(b)}`;
}

function linearChannel(value: number): number {
  const srgb = value / 255;
  return srgb <= 0.04045 ? srgb / 12.92 : ((srgb + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of an sRGB colour: 0 for black, 1 for white. */
export function relativeLuminance(color: Rgb): number {
  return 0.2126 * linearChannel(color.r) + 0.7152 * linearChannel(color.g) + 0.0722 * linearChannel(color.b);
}

/** WCAG contrast ratio between two colours, from 1 (same luminance) to 21 (black on white). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [lighter, darker] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return ((lighter ?? 0) + 0.05) / ((darker ?? 0) + 0.05);
}

function requireHex(hex: string): Rgb {
  const rgb = parseHexColor(hex);
  if (!rgb) throw new Error(`not a #rrggbb colour: ${hex}`);
  return rgb;
}

/**
 * Black or white, whichever contrasts more with `background`. One of the two always reaches at least 4.58:1, so text
 * in the returned colour meets WCAG AA on any background.
 */
export function readableTextColor(background: string): '#000000' | '#ffffff' {
  const rgb = requireHex(background);
  return contrastRatio(rgb, requireHex(BLACK)) >= contrastRatio(rgb, requireHex(WHITE)) ? BLACK : WHITE;
}

/** `a` and `b` mixed in sRGB: `shareOfA` 1 is `a`, 0 is `b`. Light tints of a brand colour are `mixColors(c, white, 0.1)`. */
export function mixColors(a: string, b: string, shareOfA: number): string {
  const x = requireHex(a);
  const y = requireHex(b);
  const mix = (p: number, q: number) => p * shareOfA + q * (1 - shareOfA);
  return toHexColor({ r: mix(x.r, y.r), g: mix(x.g, y.g), b: mix(x.b, y.b) });
}

/**
 * `color` itself when it already reaches `minimumRatio` against `background`; otherwise the same hue mixed with black
 * in small steps until it does. Used for brand-coloured text (links, headings) on the white page: a light brand colour
 * still paints buttons, but its text becomes a darker shade of it. Assumes a light background (black is the limit).
 */
export function darkenForContrast(color: string, background: string = WHITE, minimumRatio: number = MIN_TEXT_CONTRAST): string {
  const base = requireHex(color);
  const against = requireHex(background);
  for (let blackShare = 0; blackShare <= 1; blackShare += 0.02) {
    const mixed = { r: base.r * (1 - blackShare), g: base.g * (1 - blackShare), b: base.b * (1 - blackShare) };
    const hex = toHexColor(mixed);
    if (contrastRatio(requireHex(hex), against) >= minimumRatio) return hex;
  }
  return BLACK;
}
