import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cepSchema, cnpjSchema, cpfSchema, phoneSchema, slugSchema } from './validators.ts';

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

  it('reserves the names that mean something to browsers, mail or the platform, whatever the case', () => {
    for (const name of ['localhost', 'LocalHost', 'www', 'api', 'cdn', 'smtp', 'clinica', 'paciente', 'carteirinha', 'mta-sts', 'xn--crteirinha-x4a']) {
      expect(slugSchema.safeParse(name).error?.issues[0]?.message, name).toBe('Este endereço é reservado. Escolha outro.');
    }
    // Only the whole label is reserved: a clinic may still be 'clinica-sao-jose' (and the demo keeps 'demo').
    expect(slugSchema.parse('clinica-sao-jose')).toBe('clinica-sao-jose');
    expect(slugSchema.parse('demo')).toBe('demo');
  });
});

describe('cpfSchema, phoneSchema, cepSchema', () => {
  it('store the digits only, masked or not', () => {
    expect(cpfSchema.parse('529.982.247-25')).toBe('52998224725');
    expect(phoneSchema.parse('(11) 98765-4321')).toBe('11987654321');
    expect(phoneSchema.parse('11 4002-8922')).toBe('1140028922');
    expect(phoneSchema.parse('+55 (11) 98765-4321')).toBe('11987654321');
    expect(cepSchema.parse('01310-930')).toBe('01310930');
  });

  it('reject bad values with the pt-BR message', () => {
    expect(cpfSchema.safeParse('111.111.111-11').error?.issues[0]?.message).toBe('CPF inválido');
    expect(cpfSchema.safeParse('529.982.247-26').error?.issues[0]?.message).toBe('CPF inválido');
    expect(phoneSchema.safeParse('98765-4321').error?.issues[0]?.message).toBe('Telefone inválido');
    expect(phoneSchema.safeParse('(00) 98765-4321').error?.issues[0]?.message).toBe('Telefone inválido');
    expect(cepSchema.safeParse('0131-093').error?.issues[0]?.message).toBe('CEP inválido');
  });
});

/** The CPF check digits as the Receita Federal defines them, written out here so the test does not trust the library. */
function withCheckDigits(base: string): string {
  const digit = (digits: string, firstWeight: number) => {
    const sum = [...digits].reduce((total, char, index) => total + Number(char) * (firstWeight - index), 0);
    const remainder = sum % 11;
    return remainder < 2 ? 0 : 11 - remainder;
  };
  const first = digit(base, 10);
  return `${base}${first}${digit(`${base}${first}`, 11)}`;
}

function isValidCpfByDefinition(digits: string): boolean {
  return /^\d{11}$/.test(digits) && !/^(\d)\1{10}$/.test(digits) && withCheckDigits(digits.slice(0, 9)) === digits;
}

const cpfBase = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 9, maxLength: 9 });

describe('cpfSchema, as a property (security checklist case 28)', () => {
  it('accepts every valid CPF, masked or not, and stores its digits', () => {
    fc.assert(
      fc.property(cpfBase.filter((base) => !/^(\d)\1{8}$/.test(base)), (base) => {
        const cpf = withCheckDigits(base);
        const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
        expect(cpfSchema.parse(cpf)).toBe(cpf);
        expect(cpfSchema.parse(masked)).toBe(cpf);
      }),
    );
  });

  it('rejects a CPF with any one digit changed, unless the change happens to give another valid CPF', () => {
    // A change of the first digit by one can keep both check digits (a remainder of 0 or 1 both give 0): such a number
    // is a real CPF, so the property is agreement with the definition, not "every mutation fails".
    fc.assert(
      fc.property(cpfBase, fc.nat({ max: 10 }), fc.integer({ min: 1, max: 9 }), (base, position, shift) => {
        const cpf = withCheckDigits(base);
        const mutated = `${cpf.slice(0, position)}${(Number(cpf[position]) + shift) % 10}${cpf.slice(position + 1)}`;
        expect(cpfSchema.safeParse(mutated).success).toBe(isValidCpfByDefinition(mutated));
        if (position >= 9) expect(cpfSchema.safeParse(mutated).success).toBe(false);
      }),
    );
  });

  it('rejects the eleven-times-repeated digits, although their check digits add up', () => {
    for (const digit of '0123456789') expect(cpfSchema.safeParse(digit.repeat(11)).success).toBe(false);
  });
});
