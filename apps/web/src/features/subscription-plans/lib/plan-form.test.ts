import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { clinicPlanFormSchema, planFormValues } from './plan-form';

const NEW_PLAN = { ...planFormValues(null), name: 'Plano Família', priceCents: '89,90', features: 'Consultas\n\n  Exames  \n' };

describe('clinicPlanFormSchema', () => {
  it('turns reais into cents and the features into a list, with empty optional amounts as none', () => {
    const parsed = clinicPlanFormSchema.parse(NEW_PLAN);
    expect(parsed).toMatchObject({ priceCents: 8990, dependentPriceCents: 0, adhesionFeeCents: 0, features: ['Consultas', 'Exames'] });
    expect(parsed.discounts).toEqual({ consultas: 30, exames: 25, procedimentos: 20 });
  });

  it('reads amounts as people write them', () => {
    const parsed = clinicPlanFormSchema.parse({ ...NEW_PLAN, priceCents: 'R$ 1.234,5', adhesionFeeCents: '50' });
    expect(parsed.priceCents).toBe(123450);
    expect(parsed.adhesionFeeCents).toBe(5000);
  });

  it('refuses what is not an amount, and a price under the minimum, with pt-BR messages', () => {
    const bad = clinicPlanFormSchema.safeParse({ ...NEW_PLAN, priceCents: '12,345', dependentPriceCents: 'abc' });
    const errors = Object.fromEntries((bad.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));
    expect(errors.priceCents).toBe(messages.clinicPlans.moneyInvalid);
    expect(errors.dependentPriceCents).toBe(messages.clinicPlans.moneyInvalid);
    const cheap = clinicPlanFormSchema.safeParse({ ...NEW_PLAN, priceCents: '4,99' });
    expect(cheap.error?.issues[0]?.message).toBe(messages.planForm.priceMin);
  });

  it('refuses an empty number field (NaN from the input) with the range message', () => {
    const result = clinicPlanFormSchema.safeParse({ ...NEW_PLAN, maxMembers: Number.NaN });
    expect(result.error?.issues[0]?.message).toBe(messages.planForm.maxMembersRange);
  });

  it('round-trips a saved plan through the form', () => {
    const plan = {
      id: '7d1c7f3e-8a0b-4d3c-9b7e-2f4a6c8e0a1b',
      name: 'Plano Anual',
      description: null,
      priceCents: 99900,
      dependentPriceCents: 1990,
      adhesionFeeCents: 0,
      billingCycle: 'yearly' as const,
      features: ['Cartão digital'],
      maxMembers: 4,
      waitingDays: 30,
      discounts: { consultas: 40, exames: 30, procedimentos: 20 },
      isActive: false,
      awaitingReview: false,
    };
    const { id: _id, awaitingReview: _review, ...body } = plan;
    expect(clinicPlanFormSchema.parse(planFormValues(plan))).toEqual({ ...body, description: '' });
  });
});
