import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.ts';

describe('csv', () => {
  it('quotes separators, quotes and line breaks', () => {
    expect(csvCell('Clínica; Centro')).toBe('"Clínica; Centro"');
    expect(csvCell('Dr. "Zé"')).toBe('"Dr. ""Zé"""');
    expect(csvLine(['a', 'b\nc'])).toBe('a;"b\nc"\r\n');
  });

  it('neutralises cells that a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+5511999999999')).toBe("'+5511999999999");
    expect(csvCell('-')).toBe("'-");
  });
});
