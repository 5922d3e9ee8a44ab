import type { Service } from '@carteirinha/shared/contracts/services';
import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { chargeOf, EMPTY_VISIT_FORM, OTHER_SERVICE, visitAmountsOf, visitFormSchema, visitRequestOf } from './visit-form';

const CARD_ID = '7d4a4a2e-3c5b-4c1e-9d7c-0a1b2c3d4e5f';
const SERVICE: Service = { id: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', name: 'Consulta clínica', category: 'consulta', priceCents: 15_000, discountPercent: null, isActive: true, cardPrices: [] };

const PLAN = { consultas: 30, exames: 25, procedimentos: 20 };

describe('visitAmountsOf', () => {
  it("takes the plan's percentage for the category off, rounded to the cent", () => {
    expect(visitAmountsOf({ category: 'consulta', priceCents: 15_000, discountPercent: null }, PLAN)).toEqual({ discountPercent: 30, discountCents: 4_500, finalCents: 10_500 });
    expect(visitAmountsOf({ category: 'exame', priceCents: 999, discountPercent: null }, PLAN)).toEqual({ discountPercent: 25, discountCents: 250, finalCents: 749 });
  });

  it("uses the service's own discount over the plan's, as the server does", () => {
    expect(visitAmountsOf({ category: 'consulta', priceCents: 15_000, discountPercent: 50 }, PLAN)).toEqual({ discountPercent: 50, discountCents: 7_500, finalCents: 7_500 });
    // An own 0 % is a price the clinic set: no discount, not the plan's.
    expect(visitAmountsOf({ category: 'procedimento', priceCents: 5_000, discountPercent: 0 }, PLAN)).toEqual({ discountPercent: 0, discountCents: 0, finalCents: 5_000 });
  });
});

describe('chargeOf', () => {
  it('reads a service of the list, with its own discount', () => {
    expect(chargeOf({ ...EMPTY_VISIT_FORM, serviceId: SERVICE.id }, [SERVICE])).toEqual({ category: 'consulta', priceCents: 15_000, discountPercent: null });
    const own = { ...SERVICE, discountPercent: 40 };
    expect(chargeOf({ ...EMPTY_VISIT_FORM, serviceId: own.id }, [own])).toEqual({ category: 'consulta', priceCents: 15_000, discountPercent: 40 });
  });

  it('reads a typed service in reais, which has no discount of its own', () => {
    const values = { ...EMPTY_VISIT_FORM, serviceId: OTHER_SERVICE, serviceName: 'Raio X', category: 'exame' as const, price: '1.234,56' };
    expect(chargeOf(values, [])).toEqual({ category: 'exame', priceCents: 123_456, discountPercent: null });
  });

  it('names nothing while the form is incomplete', () => {
    expect(chargeOf(EMPTY_VISIT_FORM, [SERVICE])).toBeNull();
    expect(chargeOf({ ...EMPTY_VISIT_FORM, serviceId: OTHER_SERVICE, price: 'abc', category: 'exame' }, [])).toBeNull();
  });
});

describe('visitFormSchema', () => {
  it('asks for a service', () => {
    const parsed = visitFormSchema.safeParse(EMPTY_VISIT_FORM);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['serviceId']);
  });

  it('asks a typed service for its name, category and price', () => {
    const parsed = visitFormSchema.safeParse({ ...EMPTY_VISIT_FORM, serviceId: OTHER_SERVICE, price: 'dez' });
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['serviceName', 'category', 'price']);
  });

  it('takes a service of the list as it is', () => {
    expect(visitFormSchema.safeParse({ ...EMPTY_VISIT_FORM, serviceId: SERVICE.id }).success).toBe(true);
  });
});

describe('visitRequestOf', () => {
  it('sends the service id of a listed service', () => {
    expect(visitRequestOf(CARD_ID, { ...EMPTY_VISIT_FORM, serviceId: SERVICE.id })).toEqual({ cardId: CARD_ID, serviceId: SERVICE.id, status: 'concluido' });
  });

  it('sends name, category and cents of a typed service', () => {
    const values = { ...EMPTY_VISIT_FORM, serviceId: OTHER_SERVICE, serviceName: ' Raio X ', category: 'exame' as const, price: 'R$ 80,5', status: 'aguardando' as const };
    expect(visitRequestOf(CARD_ID, values)).toEqual({ cardId: CARD_ID, serviceName: 'Raio X', category: 'exame', priceCents: 8_050, status: 'aguardando' });
  });

  it('books a visit ahead as aguardando, at the São Paulo time typed, with the professional', () => {
    const values = { ...EMPTY_VISIT_FORM, serviceId: SERVICE.id, when: 'later' as const, date: '2026-12-01', time: '14:30', professional: ' Dra. Ana ' };
    expect(visitRequestOf(CARD_ID, values)).toEqual({
      cardId: CARD_ID,
      serviceId: SERVICE.id,
      status: 'aguardando',
      scheduledFor: '2026-12-01T14:30:00-03:00',
      professional: 'Dra. Ana',
    });
  });
});

describe('booking ahead', () => {
  it('asks for the date and the time of a booking', () => {
    const noDate = visitFormSchema.safeParse({ ...EMPTY_VISIT_FORM, serviceId: SERVICE.id, when: 'later' });
    expect(noDate.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['date', messages.visitsScreen.bookingDateRequired]]);
    const noTime = visitFormSchema.safeParse({ ...EMPTY_VISIT_FORM, serviceId: SERVICE.id, when: 'later', date: '2026-12-01' });
    expect(noTime.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['time']);
  });
});
