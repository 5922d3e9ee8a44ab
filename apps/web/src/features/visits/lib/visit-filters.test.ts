import { messages } from '@carteirinha/shared/messages';
import { describe, expect, it } from 'vitest';
import { activeFilterCount, checkFilters, EMPTY_FILTER_FORM, filtersOf, formOf } from './visit-filters';

describe('visit filters', () => {
  it('leaves the empty controls out of the filters, and reads them back into the form', () => {
    const form = { ...EMPTY_FILTER_FORM, from: '2026-01-01', status: 'aguardando' as const };
    expect(filtersOf(form)).toEqual({ from: '2026-01-01', status: 'aguardando' });
    expect(formOf(filtersOf(form))).toEqual(form);
  });

  it('counts the period once, however many of its ends are set', () => {
    expect(activeFilterCount({})).toBe(0);
    expect(activeFilterCount({ from: '2026-01-01', to: '2026-01-31', status: 'concluido' })).toBe(2);
  });

  it('refuses a period that ends before it starts, with the catalogue message', () => {
    expect(checkFilters({ ...EMPTY_FILTER_FORM, from: '2026-02-01', to: '2026-01-01' })).toEqual({
      ok: false,
      field: 'from',
      message: messages.visitsScreen.periodInvalid,
    });
    expect(checkFilters({ ...EMPTY_FILTER_FORM, from: '2026-01-01', to: '2026-01-01' })).toEqual({ ok: true, filters: { from: '2026-01-01', to: '2026-01-01' } });
  });
});
