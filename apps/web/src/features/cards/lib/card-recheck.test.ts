import { describe, expect, it } from 'vitest';
import type { PatientCard } from '@carteirinha/shared/contracts/cards';
import { recheckWhileNoCard } from './card-recheck';

const card = { id: 'c1' } as PatientCard;

describe('recheckWhileNoCard', () => {
  it('reads again every 2 s while the list is empty, the card being issued by a job after the payment', () => {
    expect(recheckWhileNoCard([], 1)).toBe(2_000);
    expect(recheckWhileNoCard([], 15)).toBe(2_000);
  });

  it('stops once a card has come, after 15 empty reads, and before the first answer', () => {
    expect(recheckWhileNoCard([card], 2)).toBe(false);
    expect(recheckWhileNoCard([], 16)).toBe(false);
    expect(recheckWhileNoCard(undefined, 0)).toBe(false);
  });
});
