import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { priceTableDayOf, saoPauloDayOf, shownDay } from './price-table';

describe('saoPauloDayOf', () => {
  it("is São Paulo's day, not UTC's", () => {
    // 01:30 UTC on the 27th is still 22:30 of the 26th in São Paulo (UTC−3).
    expect(saoPauloDayOf(new Date('2026-11-27T01:30:00Z'))).toBe('2026-11-26');
    expect(saoPauloDayOf(new Date('2026-11-27T03:00:00Z'))).toBe('2026-11-27');
  });
});

describe('shownDay', () => {
  it('writes the day as people read it', () => {
    expect(shownDay('2026-01-05')).toBe('05/01/2026');
  });
});

describe('priceTableDayOf', () => {
  const today = '2026-11-26';

  it("asks for today's table when the field is empty or today", () => {
    expect(priceTableDayOf('', today)).toEqual({ day: undefined });
    expect(priceTableDayOf(today, today)).toEqual({ day: undefined });
  });

  it('asks for a past day as it was', () => {
    expect(priceTableDayOf('2026-03-01', today)).toEqual({ day: '2026-03-01' });
  });

  it('refuses a day after today and a day that does not exist', () => {
    expect(priceTableDayOf('2026-11-27', today)).toEqual({ error: messages.priceTable.dateFuture });
    expect(priceTableDayOf('2026-02-30', today)).toEqual({ error: messages.priceTable.dateInvalid });
    expect(priceTableDayOf('ontem', today)).toEqual({ error: messages.priceTable.dateInvalid });
  });
});
