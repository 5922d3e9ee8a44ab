import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUSES } from '@carteirinha/shared/contracts/payments';
import { benefitsActive, benefitsStateOf } from '../subscriptions/benefits.ts';
import { actionOfEvent, canMove, eventOfProviderStatus, isFirstSettlement, isReversal, targetStatusOf } from './state-machine.ts';

describe('the ADR 013 mapping', () => {
  it.each([
    ['PAYMENT_RECEIVED', 'received'],
    ['PAYMENT_CONFIRMED', 'confirmed'],
    ['PAYMENT_OVERDUE', 'overdue'],
    ['PAYMENT_REFUNDED', 'refunded'],
    ['PAYMENT_CHARGEBACK_REQUESTED', 'refunded'],
    ['PAYMENT_CHARGEBACK_DISPUTE', 'refunded'],
    ['PAYMENT_DELETED', 'canceled'],
    ['PAYMENT_RESTORED', 'pending'],
    ['PAYMENT_CREATED', null],
    ['PAYMENT_BANK_SLIP_VIEWED', null],
    ['SOMETHING_NEW', null],
  ])('%s → %s', (event, status) => {
    expect(targetStatusOf(actionOfEvent(event))).toBe(status);
  });

  it('replays a provider status as its event', () => {
    expect(eventOfProviderStatus('RECEIVED_IN_CASH')).toBe('PAYMENT_RECEIVED');
    expect(eventOfProviderStatus('DELETED')).toBe('PAYMENT_DELETED');
    expect(eventOfProviderStatus('REFUND_IN_PROGRESS')).toBeNull();
  });
});

describe('precedence', () => {
  it('paid beats overdue, refunded beats paid, received beats confirmed', () => {
    expect(canMove('received', 'overdue')).toBe(false);
    expect(canMove('overdue', 'received')).toBe(true);
    expect(canMove('received', 'refunded')).toBe(true);
    expect(canMove('refunded', 'received')).toBe(false);
    expect(canMove('confirmed', 'received')).toBe(true);
    expect(canMove('received', 'confirmed')).toBe(false);
    expect(canMove('canceled', 'pending')).toBe(true);
    expect(canMove('received', 'canceled')).toBe(false);
  });

  it('no status moves to itself', () => {
    for (const status of PAYMENT_STATUSES) expect(canMove(status, status)).toBe(false);
  });

  it('settles once per charge', () => {
    expect(isFirstSettlement('pending', 'confirmed')).toBe(true);
    expect(isFirstSettlement('overdue', 'received')).toBe(true);
    expect(isFirstSettlement('confirmed', 'received')).toBe(false);
    expect(isFirstSettlement('refunded', 'received')).toBe(false);
    expect(isReversal('received', 'refunded')).toBe(true);
    expect(isReversal('pending', 'refunded')).toBe(false);
  });
});

describe('benefits', () => {
  const now = new Date('2026-12-10T12:00:00Z');
  const base = { status: 'active' as const, expiresAt: new Date('2026-12-24T03:00:00Z'), benefitsStartAt: null, canceledAt: null };

  it('active within the paid period; waiting during the carência', () => {
    expect(benefitsStateOf(base, 5, now)).toBe('active');
    expect(benefitsStateOf({ ...base, benefitsStartAt: new Date('2026-12-20T00:00:00Z') }, 5, now)).toBe('waiting');
  });

  it('overdue keeps the benefits through the grace days, then suspends them', () => {
    const overdue = { ...base, status: 'overdue' as const, expiresAt: new Date('2026-12-08T03:00:00Z') };
    expect(benefitsActive(overdue, 5, now)).toBe(true);
    expect(benefitsStateOf(overdue, 1, now)).toBe('suspended');
    expect(benefitsStateOf({ ...overdue, expiresAt: null }, 5, now)).toBe('suspended');
  });

  it('a cancelled subscription ends at its paid-through date, without grace', () => {
    const ending = { ...base, canceledAt: new Date('2026-12-01T00:00:00Z'), expiresAt: new Date('2026-12-09T03:00:00Z') };
    expect(benefitsActive(ending, 5, now)).toBe(false);
  });

  it('pending, canceled and expired never validate', () => {
    for (const status of ['pending', 'canceled', 'expired'] as const) expect(benefitsStateOf({ ...base, status }, 5, now)).toBe('inactive');
  });
});
