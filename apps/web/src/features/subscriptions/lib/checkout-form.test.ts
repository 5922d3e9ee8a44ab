import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { checkoutFormSchema, EMPTY_CARD, paymentMethodFormSchema, splitExpiry, submitFingerprint } from './checkout-form';

// A CPF with valid check digits, and a test card number that passes the Luhn check.
const CPF = '529.982.247-25';
const CARD = { number: '4111 1111 1111 1111', holderName: 'Maria Silva', expiry: '12/39', ccv: '123', postalCode: '01310-100', addressNumber: '100' };

function form(overrides: Record<string, unknown> = {}) {
  return {
    customerData: { name: 'Maria Silva', email: 'maria@teste.dev', cpfCnpj: CPF, phone: '' },
    paymentMethod: 'pix',
    acceptTerms: true,
    card: EMPTY_CARD,
    ...overrides,
  };
}

function messagesByPath(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('checkoutFormSchema', () => {
  it('sends Pix without a card, the CPF as digits and no empty phone', () => {
    const parsed = checkoutFormSchema.parse(form());
    expect(parsed).toEqual({
      customerData: { name: 'Maria Silva', email: 'maria@teste.dev', cpfCnpj: '52998224725', phone: undefined },
      paymentMethod: 'pix',
      acceptTerms: true,
      creditCard: undefined,
    });
  });

  it('refuses a CPF whose check digits are wrong, under the CPF field', () => {
    const result = checkoutFormSchema.safeParse(form({ customerData: { name: 'Maria Silva', email: 'maria@teste.dev', cpfCnpj: '529.982.247-26' } }));
    expect(messagesByPath(result)['customerData.cpfCnpj']).toBe(messages.checkoutRules.invalidCpfCnpj);
  });

  it('requires the terms to be accepted', () => {
    const result = checkoutFormSchema.safeParse(form({ acceptTerms: false }));
    expect(messagesByPath(result).acceptTerms).toBe(messages.contractTerms.mustAccept);
  });

  it('checks the card only for a card payment, and shows each problem under its field', () => {
    expect(checkoutFormSchema.safeParse(form({ paymentMethod: 'boleto', card: { ...EMPTY_CARD, number: '123' } })).success).toBe(true);
    const result = checkoutFormSchema.safeParse(form({ paymentMethod: 'credit_card', card: { ...CARD, number: '4111 1111 1111 1112', expiry: '13/30' } }));
    const errors = messagesByPath(result);
    expect(errors['card.number']).toBe(messages.checkoutRules.cardNumberInvalid);
    expect(errors['card.expiry']).toBe(messages.checkoutRules.cardExpiryInvalid);
  });

  it('sends a valid card as the shared schema takes it', () => {
    const parsed = checkoutFormSchema.parse(form({ paymentMethod: 'credit_card', card: CARD }));
    expect(parsed.creditCard).toEqual({
      holderName: 'Maria Silva',
      number: '4111111111111111',
      expiryMonth: '12',
      expiryYear: '39',
      ccv: '123',
      postalCode: '01310100',
      addressNumber: '100',
    });
  });
});

describe('paymentMethodFormSchema', () => {
  it('drops the card fields for Pix and boleto', () => {
    expect(paymentMethodFormSchema.parse({ paymentMethod: 'boleto', card: CARD })).toEqual({ paymentMethod: 'boleto', creditCard: undefined });
  });
});

describe('splitExpiry', () => {
  it('reads the ways an expiry is typed', () => {
    expect(splitExpiry('12/29')).toEqual({ expiryMonth: '12', expiryYear: '29' });
    expect(splitExpiry('1229')).toEqual({ expiryMonth: '12', expiryYear: '29' });
    expect(splitExpiry('3/2031')).toEqual({ expiryMonth: '3', expiryYear: '2031' });
    expect(splitExpiry('xx')).toEqual({ expiryMonth: 'xx', expiryYear: '' });
  });
});

describe('submitFingerprint', () => {
  it('never carries the full card number or the CVV', () => {
    const request = { planId: 'p', creditCard: checkoutFormSchema.parse(form({ paymentMethod: 'credit_card', card: CARD })).creditCard };
    const text = JSON.stringify(submitFingerprint(request));
    expect(text).not.toContain('4111111111111111');
    expect(text).not.toContain('"123"');
    expect(text).toContain('1111');
  });
});
