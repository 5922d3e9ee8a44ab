import { slugSchema } from '@carteirinha/shared/validators';
import { describe, expect, it } from 'vitest';
import { clinicSiteUrl } from './clinic-site-url';
import { suggestSlug } from './suggest-slug';

describe('suggestSlug', () => {
  it('lower-cases, drops accents and joins words with hyphens', () => {
    expect(suggestSlug('Clínica São José')).toBe('clinica-sao-jose');
    expect(suggestSlug('  Saúde & Vida — Centro Médico  ')).toBe('saude-vida-centro-medico');
    expect(suggestSlug('Ótica Ação 24h')).toBe('otica-acao-24h');
  });

  it('gives an address the server accepts for an ordinary name', () => {
    const long = suggestSlug('Clínica de Especialidades Médicas Integradas do Vale do Paraíba');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long.endsWith('-')).toBe(false);
    expect(slugSchema.safeParse(long).success).toBe(true);
  });

  it('is empty when the name has nothing to keep', () => {
    expect(suggestSlug('')).toBe('');
    expect(suggestSlug('!!!')).toBe('');
  });
});

describe('clinicSiteUrl', () => {
  const here = { protocol: 'http:', host: '127.0.0.1:3210' };

  it("follows the demo clinic's address: same scheme, main domain and port", () => {
    expect(clinicSiteUrl('minha-clinica', 'http://demo.localhost:3210', here)).toBe('http://minha-clinica.localhost:3210');
    expect(clinicSiteUrl('vida', 'https://demo.carteirinha.com.br', here)).toBe('https://vida.carteirinha.com.br');
  });

  it("falls back to this page's host without www.", () => {
    expect(clinicSiteUrl('vida', null, { protocol: 'https:', host: 'www.carteirinha.com.br' })).toBe('https://vida.carteirinha.com.br');
    expect(clinicSiteUrl('vida', 'https://cartao.clinicademo.com.br', { protocol: 'https:', host: 'carteirinha.com.br' })).toBe(
      'https://vida.carteirinha.com.br',
    );
  });
});
