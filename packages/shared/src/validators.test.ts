import { describe, expect, it } from 'vitest';
import { cnpjSchema, slugSchema } from './validators.ts';

describe('cnpjSchema', () => {
  it('accepts numeric and alphanumeric CNPJs with valid check digits, with or without punctuation', () => {
    expect(cnpjSchema.parse('11.222.333/0001-81')).toBe('11222333000181');
    expect(cnpjSchema.parse('12.abc.345/01de-35')).toBe('12ABC34501DE35');
  });

  it('rejects wrong check digits and wrong lengths with the pt-BR message', () => {
    for (const bad of ['11.222.333/0001-82', '1122233300018', '00000000000000', '']) {
      const result = cnpjSchema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('CNPJ inválido');
    }
  });
});

describe('slugSchema', () => {
  it('accepts a DNS label and lower-cases it', () => {
    expect(slugSchema.parse('Clinica-Sao-Jose')).toBe('clinica-sao-jose');
  });

  it('rejects bad labels and reserved names', () => {
    expect(slugSchema.safeParse('-abc').success).toBe(false);
    expect(slugSchema.safeParse('ab').success).toBe(false);
    expect(slugSchema.safeParse('clínica').success).toBe(false);
    expect(slugSchema.safeParse('admin').error?.issues[0]?.message).toBe('Este endereço é reservado. Escolha outro.');
  });
});
