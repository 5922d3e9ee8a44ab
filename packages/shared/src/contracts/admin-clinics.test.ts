import { describe, expect, it } from 'vitest';
import { clinicFormSchema, clinicPlanIssue, isOnMainDomain } from './admin-clinics.ts';

const plan = { id: '7d9b1c1e-8a52-4c3f-9a51-1f0d2b9e4a10', isActive: true, customDomain: true };

describe('clinicPlanIssue', () => {
  it('accepts an active plan, with or without a domain, and no plan without a domain', () => {
    expect(clinicPlanIssue({ planId: plan.id, domain: null }, plan, null)).toBeNull();
    expect(clinicPlanIssue({ planId: plan.id, domain: 'cartao.clinica.com.br' }, plan, null)).toBeNull();
    expect(clinicPlanIssue({ planId: null, domain: null }, null, null)).toBeNull();
  });

  it('refuses an unknown plan, and an inactive one unless the clinic is already on it', () => {
    expect(clinicPlanIssue({ planId: plan.id, domain: null }, null, null)).toEqual({ field: 'planId', message: 'Selecione um plano válido' });
    const inactive = { ...plan, isActive: false };
    expect(clinicPlanIssue({ planId: plan.id, domain: null }, inactive, null)?.message).toBe('Este plano está inativo. Selecione um plano ativo.');
    expect(clinicPlanIssue({ planId: plan.id, domain: null }, inactive, plan.id)).toBeNull();
  });

  it('asks for a plan with a custom domain when a domain is typed', () => {
    const issue = { field: 'domain', message: 'O plano escolhido não inclui domínio próprio. Escolha outro plano ou deixe o domínio em branco.' };
    expect(clinicPlanIssue({ planId: plan.id, domain: 'cartao.clinica.com.br' }, { ...plan, customDomain: false }, null)).toEqual(issue);
    expect(clinicPlanIssue({ planId: null, domain: 'cartao.clinica.com.br' }, null, null)).toEqual(issue);
  });
});

describe('isOnMainDomain', () => {
  it('is the main domain and every name under it, and nothing that only ends with the same letters', () => {
    expect(isOnMainDomain('carteirinha.com.br', 'carteirinha.com.br')).toBe(true);
    expect(isOnMainDomain('demo.carteirinha.com.br', 'carteirinha.com.br')).toBe(true);
    expect(isOnMainDomain('a.b.carteirinha.com.br', 'Carteirinha.com.br')).toBe(true);
    expect(isOnMainDomain('minhacarteirinha.com.br', 'carteirinha.com.br')).toBe(false);
    expect(isOnMainDomain('carteirinha.com.br.evil.com', 'carteirinha.com.br')).toBe(false);
  });
});

describe('clinicFormSchema', () => {
  const valid = { name: 'Clínica', cnpj: '45.723.174/0001-10', slug: 'clinica-vida', domain: '', planId: null, status: 'active', city: '', state: 'sp' };

  it('names a pt-BR message for the state, the status and the plan', () => {
    const messageOf = (changes: Record<string, unknown>) => clinicFormSchema.safeParse({ ...valid, ...changes }).error?.issues[0]?.message;
    expect(messageOf({ state: 'São Paulo' })).toBe('Use a sigla do estado, como SP');
    expect(messageOf({ status: 'fechada' })).toBe('Selecione um status válido');
    expect(messageOf({ planId: 'starter' })).toBe('Selecione um plano válido');
    expect(clinicFormSchema.parse(valid)).toMatchObject({ state: 'SP', domain: null, city: null });
    expect(clinicFormSchema.parse({ ...valid, state: '' }).state).toBeNull();
  });
});
