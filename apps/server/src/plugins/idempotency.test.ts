import { describe, expect, it } from 'vitest';
import { requestHashOf } from './idempotency.ts';

describe('requestHashOf', () => {
  it('hashes the same body alike whatever the order of its fields', () => {
    expect(requestHashOf({ planId: 'a', customerData: { name: 'Maria', email: 'm@x.dev' } })).toBe(requestHashOf({ customerData: { email: 'm@x.dev', name: 'Maria' }, planId: 'a' }));
  });

  it('tells different bodies apart', () => {
    expect(requestHashOf({ paymentMethod: 'pix' })).not.toBe(requestHashOf({ paymentMethod: 'boleto' }));
  });

  it('leaves out what would let the stored hash be brute-forced back to a card: all but the last four digits, the CVV', () => {
    const card = { holderName: 'Maria', number: '4111111111111111', expiryMonth: '12', expiryYear: '2035', ccv: '123' };
    const sameEnding = { ...card, number: '4000000000001111', ccv: '999' };
    expect(requestHashOf({ paymentMethod: 'credit_card', creditCard: card })).toBe(requestHashOf({ paymentMethod: 'credit_card', creditCard: sameEnding }));
    expect(requestHashOf({ paymentMethod: 'credit_card', creditCard: card })).not.toBe(requestHashOf({ paymentMethod: 'credit_card', creditCard: { ...card, number: '4111111111112222' } }));
  });
});
