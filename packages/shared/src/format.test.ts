import { describe, expect, it } from 'vitest';
import { formatCep, formatCnpj, formatCpf, formatDate, formatDateTime, formatMoney, formatPhone, ofPlan } from './format.ts';

describe('formatMoney', () => {
  it('formats integer cents as pt-BR reais', () => {
    expect(formatMoney(123456)).toBe('R$ 1.234,56');
    expect(formatMoney(29700)).toBe('R$ 297,00');
    expect(formatMoney(0)).toBe('R$ 0,00');
  });
});

describe('formatDate', () => {
  it('shows the São Paulo calendar day, not the UTC one', () => {
    // 02:00 UTC on 1 March is still 28 February in São Paulo (UTC-3).
    expect(formatDate('2026-03-01T02:00:00Z')).toBe('28/02/2026');
    expect(formatDateTime('2026-03-01T15:30:00Z')).toBe('01/03/2026 12:30');
  });
});

describe('formatCnpj', () => {
  it('masks the 14 digits as 00.000.000/0000-00', () => {
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });

  it('masks an alphanumeric CNPJ, upper-casing its letters', () => {
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
  });

  it('re-masks a value that already has punctuation', () => {
    expect(formatCnpj('11.222.333/0001-81')).toBe('11.222.333/0001-81');
    expect(formatCnpj(' 11 222 333 0001 81 ')).toBe('11.222.333/0001-81');
  });

  it('leaves a value that is not a CNPJ as it is', () => {
    expect(formatCnpj('')).toBe('');
    expect(formatCnpj('1122233300018')).toBe('1122233300018');
    expect(formatCnpj('112223330001811')).toBe('112223330001811');
    // The check digits are always numeric.
    expect(formatCnpj('12ABC34501DEAB')).toBe('12ABC34501DEAB');
  });
});

describe('formatCpf, formatPhone, formatCep', () => {
  it('mask the digits the way people write them, whatever punctuation was typed', () => {
    expect(formatCpf('52998224725')).toBe('529.982.247-25');
    expect(formatCpf('529 982 247 25')).toBe('529.982.247-25');
    expect(formatPhone('11987654321')).toBe('(11) 98765-4321');
    expect(formatPhone('1140028922')).toBe('(11) 4002-8922');
    expect(formatPhone('(11)4002-8922')).toBe('(11) 4002-8922');
    expect(formatCep('01310930')).toBe('01310-930');
  });

  it('leave a value of the wrong length as typed, never half-masked', () => {
    expect(formatCpf('5299822')).toBe('5299822');
    expect(formatPhone('1198765')).toBe('1198765');
    expect(formatPhone('+55 11 98765-4321')).toBe('+55 11 98765-4321');
    expect(formatCep('0131')).toBe('0131');
    expect(formatPhone('')).toBe('');
  });
});

describe('ofPlan', () => {
  it('names a plan once, whether or not the clinic called it "Plano …"', () => {
    expect(ofPlan('Plano Família')).toBe('do Plano Família');
    expect(ofPlan('plano anual')).toBe('do plano anual');
    expect(ofPlan('Família')).toBe('do plano Família');
    expect(ofPlan('Planos Empresariais')).toBe('do plano Planos Empresariais');
  });
});
