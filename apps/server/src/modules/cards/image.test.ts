import { describe, expect, it } from 'vitest';
import { cardSvg } from './image.ts';

const card = {
  clinicName: 'Clínica Demo',
  primaryColor: '#0d9488',
  personName: 'Maria <Silva>',
  isDependent: false,
  planName: 'Plano Família',
  number: '8076123456789012',
  validUntil: new Date('2027-03-31T12:00:00Z'),
  active: true,
  siteHost: 'demo.carteirinha.com.br',
};

describe('the card image', () => {
  it('prints what lasts — number, name, plan, validity and the clinic’s site — and no QR code that dies in a minute', () => {
    const svg = cardSvg(card);
    expect(svg).toContain('8076 1234 5678 9012');
    expect(svg).toContain('Maria &#60;Silva&#62;');
    expect(svg).toContain('Plano Família');
    expect(svg).toContain('03/2027');
    expect(svg).toContain('demo.carteirinha.com.br');
    expect(svg).not.toMatch(/<image|C1\./);
  });

  it('greys a card that does not validate now, and says so', () => {
    const svg = cardSvg({ ...card, active: false });
    expect(svg).toContain('#9ca3af');
    expect(svg).toContain('CARTÃO INATIVO');
  });
});
