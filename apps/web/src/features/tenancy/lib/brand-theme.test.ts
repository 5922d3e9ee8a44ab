import { contrastRatio, parseHexColor } from '@carteirinha/shared/color';
import { describe, expect, it } from 'vitest';
import { brandThemeVariables } from './brand-theme';

const ratio = (a: string | undefined, b: string | undefined) => contrastRatio(parseHexColor(a ?? '')!, parseHexColor(b ?? '')!);

describe('brandThemeVariables', () => {
  it('paints primary surfaces in the clinic colour with readable text on them', () => {
    const theme = brandThemeVariables('#7C3AED')!;
    expect(theme['--primary']).toBe('#7c3aed');
    expect(theme['--sidebar-primary']).toBe('#7c3aed');
    expect(theme['--ring']).toBe('#7c3aed');
    expect(theme['--primary-foreground']).toBe('#ffffff');
    expect(theme['--sidebar-primary-foreground']).toBe('#ffffff');
    expect(theme['--primary-text']).toBe('#7c3aed');
  });

  it('keeps brand-coloured text readable on white when the colour is light', () => {
    const theme = brandThemeVariables('#0d9488')!;
    expect(theme['--primary-foreground']).toBe('#000000');
    expect(ratio(theme['--primary'], theme['--primary-foreground'])).toBeGreaterThanOrEqual(4.5);
    expect(ratio(theme['--primary-text'], '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it('changes nothing without a valid colour', () => {
    expect(brandThemeVariables(null)).toBeNull();
    expect(brandThemeVariables('teal')).toBeNull();
  });
});
