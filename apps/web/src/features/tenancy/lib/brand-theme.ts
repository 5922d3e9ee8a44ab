import { darkenForContrast, mixColors, parseHexColor, readableTextColor } from '@carteirinha/shared/color';

/** CSS custom properties by name, as `style.setProperty` takes them. */
export type CssVariables = Record<`--${string}`, string>;

const WHITE = '#ffffff';
/** How much of the brand colour goes into the light tint behind hovered menu entries and icon badges. */
const TINT_SHARE = 0.1;

/**
 * The design tokens of styles.css that a clinic's colour replaces, or null when it has none (or not a #rrggbb one).
 * Buttons and badges are painted in the colour itself, with black or white text, whichever reads better (WCAG AA);
 * brand-coloured text on the white page (`text-primary-text`: links, headings) uses a shade dark enough to read.
 */
export function brandThemeVariables(primaryColor: string | null): CssVariables | null {
  if (primaryColor === null || parseHexColor(primaryColor) === null) return null;
  const color = primaryColor.toLowerCase();
  const foreground = readableTextColor(color);
  const tint = mixColors(color, WHITE, TINT_SHARE);
  return {
    '--primary': color,
    '--primary-foreground': foreground,
    '--primary-text': darkenForContrast(color, WHITE),
    '--ring': color,
    '--accent': tint,
    '--sidebar-primary': color,
    '--sidebar-primary-foreground': foreground,
    '--sidebar-ring': color,
    '--sidebar-accent': tint,
  };
}
