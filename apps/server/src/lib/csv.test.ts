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
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('-\n=1')).toBe(`"'-\n=1"`);
  });

  it('leaves a lone sign alone: "-" is a placeholder, not a formula', () => {
    expect(csvCell('-')).toBe('-');
    expect(csvLine(['a', '-', ''])).toBe('a;-;\r\n');
    expect(csvCell('Sem função')).toBe('Sem função');
  });
});
