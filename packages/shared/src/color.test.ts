import { describe, expect, it } from 'vitest';
import { MIN_TEXT_CONTRAST, contrastRatio, darkenForContrast, mixColors, parseHexColor, readableTextColor, relativeLuminance, toHexColor } from './color.ts';

const rgb = (hex: string) => parseHexColor(hex)!;

describe('parseHexColor / toHexColor', () => {
  it('reads #rrggbb in either case and writes it back in lower case', () => {
    expect(parseHexColor('#0D9488')).toEqual({ r: 13, g: 148, b: 136 });
    expect(toHexColor({ r: 13, g: 148, b: 136 })).toBe('#0d9488');
  });

  it('rejects anything else', () => {
    for (const value of ['0d9488', '#0d948', '#0d94888', '#zzzzzz', 'teal', '']) expect(parseHexColor(value)).toBeNull();
  });
});

describe('relativeLuminance and contrastRatio', () => {
  it('matches the WCAG reference values', () => {
    expect(relativeLuminance(rgb('#000000'))).toBe(0);
    expect(relativeLuminance(rgb('#ffffff'))).toBeCloseTo(1, 10);
    expect(contrastRatio(rgb('#000000'), rgb('#ffffff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(rgb('#ffffff'), rgb('#000000'))).toBeCloseTo(21, 5);
    // #767676 is the lightest grey that passes AA on white (4.54:1).
    expect(contrastRatio(rgb('#767676'), rgb('#ffffff'))).toBeCloseTo(4.54, 2);
    expect(contrastRatio(rgb('#0d9488'), rgb('#0d9488'))).toBe(1);
  });
});

describe('readableTextColor', () => {
  it('puts white on dark colours and black on light ones', () => {
    expect(readableTextColor('#1e3a8a')).toBe('#ffffff');
    expect(readableTextColor('#7c3aed')).toBe('#ffffff');
    expect(readableTextColor('#facc15')).toBe('#000000');
    expect(readableTextColor('#ffffff')).toBe('#000000');
    // Clínica Demo's teal: white would be 3.7:1, black is 5.6:1.
    expect(readableTextColor('#0d9488')).toBe('#000000');
  });

  it('always reaches AA, whatever the colour', () => {
    for (let value = 0; value <= 0xffffff; value += 0x0f0f0f) {
      const background = toHexColor({ r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff });
      const ratio = contrastRatio(rgb(background), rgb(readableTextColor(background)));
      expect(ratio, background).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
  });
});

describe('darkenForContrast', () => {
  it('keeps a colour that already reads on white', () => {
    expect(darkenForContrast('#1e3a8a')).toBe('#1e3a8a');
  });

  it('darkens a light colour just enough to read on white', () => {
    const darker = darkenForContrast('#0d9488');
    expect(darker).not.toBe('#0d9488');
    expect(contrastRatio(rgb(darker), rgb('#ffffff'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(rgb(darker), rgb('#ffffff'))).toBeLessThan(MIN_TEXT_CONTRAST + 0.5);
    expect(contrastRatio(rgb(darkenForContrast('#ffff00')), rgb('#ffffff'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });
});

describe('mixColors', () => {
  it('mixes two colours by the share of the first', () => {
    expect(mixColors('#000000', '#ffffff', 1)).toBe('#000000');
    expect(mixColors('#000000', '#ffffff', 0)).toBe('#ffffff');
    expect(mixColors('#000000', '#ffffff', 0.5)).toBe('#808080');
    expect(mixColors('#0d9488', '#ffffff', 0.1)).toBe('#e7f4f3');
  });
});
