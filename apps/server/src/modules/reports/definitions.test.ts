import { describe, expect, it } from 'vitest';
import { printProjection, REPORTS } from './definitions.ts';

describe('report definitions', () => {
  it('print fewer columns than the CSV, each one of the CSV columns', () => {
    for (const definition of Object.values(REPORTS)) {
      expect(definition.printColumns.length).toBeLessThan(definition.header.length);
      expect(definition.printColumns.every((column) => definition.header.includes(column))).toBe(true);
    }
  });

  it('keep the print columns of a CSV row, in order', () => {
    const row = ['Clínica Centro', '11.222.333/0001-81', 'Ativa', 'Belém', 'PA', '10/03/2025'];
    expect(printProjection(REPORTS.clinicas)(row)).toEqual(['Clínica Centro', '11.222.333/0001-81', 'Ativa', '10/03/2025']);
    expect(printProjection(REPORTS.planos)(['Starter', 'R$ 297,00', 'Para começar', 'Sim'])).toEqual(['Starter', 'R$ 297,00', 'Sim']);
  });

  it('are titled as the specification says, with no suffix', () => {
    expect(REPORTS.clinicas.title).toBe('Relatório de Clínicas');
    expect(REPORTS.usuarios.title).toBe('Relatório de Usuários');
    expect(REPORTS.planos.title).toBe('Relatório de Planos');
  });
});
