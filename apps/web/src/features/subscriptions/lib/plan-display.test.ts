import type { SubscriptionStatus } from '@carteirinha/shared/contracts/subscriptions';
import { describe, expect, it } from 'vitest';
import { cycleSuffix, isOpenSubscription, planPriceLabel, statusBadgeVariant } from './plan-display';
import { formatDay, isOpen, isPaid } from './payment-display';

describe('plan display', () => {
  it('shows monthly per month and anything else per year (specification §3)', () => {
    expect(cycleSuffix('monthly')).toBe('/mês');
    expect(cycleSuffix('yearly')).toBe('/ano');
    expect(cycleSuffix('quarterly')).toBe('/ano');
    expect(planPriceLabel({ priceCents: 8990, billingCycle: 'monthly' })).toBe('R$ 89,90/mês');
  });

  it('holds the place while a subscription is pending, active or overdue', () => {
    const open: SubscriptionStatus[] = ['pending', 'active', 'overdue'];
    expect(open.map((status) => isOpenSubscription(status))).toEqual([true, true, true]);
    expect(isOpenSubscription('canceled')).toBe(false);
    expect(isOpenSubscription('expired')).toBe(false);
    expect(isOpenSubscription(undefined)).toBe(false);
  });

  it('gives the default badge to active only (specification §4)', () => {
    expect(statusBadgeVariant('active')).toBe('default');
    expect(statusBadgeVariant('overdue')).toBe('secondary');
  });
});

describe('payment display', () => {
  it('tells paid and open charges apart', () => {
    expect(isPaid('received')).toBe(true);
    expect(isPaid('confirmed')).toBe(true);
    expect(isPaid('pending')).toBe(false);
    expect(isOpen('overdue')).toBe(true);
    expect(isOpen('refunded')).toBe(false);
  });

  it('shows a contract day as that day in São Paulo', () => {
    expect(formatDay('2026-11-29')).toBe('29/11/2026');
    expect(formatDay('2026-01-01')).toBe('01/01/2026');
  });
});
