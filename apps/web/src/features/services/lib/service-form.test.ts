import type { Service } from '@carteirinha/shared/contracts/services';
import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { EMPTY_SERVICE_FORM, serviceFormFieldsOf, serviceFormFieldsSchema } from './service-form';

const m = messages.services;

function messagesOf(fields: Parameters<typeof serviceFormFieldsSchema.safeParse>[0]): Record<string, string> {
  const parsed = serviceFormFieldsSchema.safeParse(fields);
  return Object.fromEntries((parsed.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
}

describe('serviceFormFieldsSchema', () => {
  it("reads the typed reais as cents and a blank discount as the plan's", () => {
    const parsed = serviceFormFieldsSchema.parse({ name: ' Consulta clínica ', category: 'consulta', price: 'R$ 1.234,5', discount: '' });
    expect(parsed).toEqual({ name: 'Consulta clínica', category: 'consulta', priceCents: 123_450, discountPercent: null });
  });

  it('keeps an own discount, 0 % included', () => {
    expect(serviceFormFieldsSchema.parse({ name: 'Raio X', category: 'exame', price: '80', discount: '0' }).discountPercent).toBe(0);
    expect(serviceFormFieldsSchema.parse({ name: 'Raio X', category: 'exame', price: '80', discount: ' 45 ' }).discountPercent).toBe(45);
  });

  it("shows the shared schema's pt-BR message on the field that was typed", () => {
    expect(messagesOf(EMPTY_SERVICE_FORM)).toEqual({ name: m.nameRequired, category: m.categoryRequired, price: m.priceInvalid });
    expect(messagesOf({ name: 'Raio X', category: 'exame', price: 'dez', discount: '101' })).toEqual({ price: m.priceInvalid, discount: m.discountInvalid });
    expect(messagesOf({ name: 'Raio X', category: 'exame', price: '10', discount: '12,5' })).toEqual({ discount: m.discountInvalid });
    expect(messagesOf({ name: 'Raio X', category: 'exame', price: '10', discount: 'metade' })).toEqual({ discount: m.discountInvalid });
  });
});

describe('serviceFormFieldsOf', () => {
  it('fills the form with a service as the person would type it', () => {
    const service: Service = { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', name: 'Ultrassom', category: 'exame', priceCents: 25_050, discountPercent: 40, isActive: true, cardPrices: [] };
    expect(serviceFormFieldsOf(service)).toEqual({ name: 'Ultrassom', category: 'exame', price: '250,50', discount: '40' });
    expect(serviceFormFieldsOf({ ...service, discountPercent: null }).discount).toBe('');
    expect(serviceFormFieldsOf(null)).toEqual(EMPTY_SERVICE_FORM);
  });
});
