import { describe, expect, it } from 'vitest';
import { formatIsoDay } from '@carteirinha/shared/format';
import { checkPeriod, periodLabel, periodQuery, readPeriodFromUrl, writePeriodToUrl } from './period';

describe('checkPeriod', () => {
  it('asks for both dates when either is missing', () => {
    expect(checkPeriod('', '')).toEqual({ ok: false, message: 'Por favor, selecione ambas as datas' });
    expect(checkPeriod('2025-01-01', '')).toEqual({ ok: false, message: 'Por favor, selecione ambas as datas' });
    expect(checkPeriod('', '2025-01-01')).toEqual({ ok: false, message: 'Por favor, selecione ambas as datas' });
  });

  it('refuses a start after the end', () => {
    expect(checkPeriod('2025-02-01', '2025-01-31')).toEqual({ ok: false, message: 'Data inicial não pode ser maior que a data final' });
  });

  it('accepts a single day and an ordinary range', () => {
    expect(checkPeriod('2025-01-31', '2025-01-31')).toEqual({ ok: true, period: { from: '2025-01-31', to: '2025-01-31' } });
    expect(checkPeriod('2024-12-01', '2025-01-31')).toEqual({ ok: true, period: { from: '2024-12-01', to: '2025-01-31' } });
  });
});

describe('period in the address', () => {
  it('reads a valid period and ignores a broken one', () => {
    expect(readPeriodFromUrl(new URLSearchParams('de=2025-01-01&ate=2025-01-31'))).toEqual({ from: '2025-01-01', to: '2025-01-31' });
    expect(readPeriodFromUrl(new URLSearchParams('de=2025-01-01'))).toBeNull();
    expect(readPeriodFromUrl(new URLSearchParams('de=2025-02-01&ate=2025-01-31'))).toBeNull();
    expect(readPeriodFromUrl(new URLSearchParams('de=ontem&ate=hoje'))).toBeNull();
  });

  it('writes and clears it, keeping other parameters', () => {
    const written = writePeriodToUrl(new URLSearchParams('x=1'), { from: '2025-01-01', to: '2025-01-31' });
    expect(written.toString()).toBe('x=1&de=2025-01-01&ate=2025-01-31');
    expect(writePeriodToUrl(written, null).toString()).toBe('x=1');
  });

  it('becomes the API query string', () => {
    expect(periodQuery({ from: '2025-01-01', to: '2025-01-31' })).toBe('from=2025-01-01&to=2025-01-31');
    expect(periodQuery(null)).toBe('');
  });
});

describe('formatIsoDay', () => {
  it('shows the calendar day in dd/MM/yyyy, whatever the time zone', () => {
    expect(formatIsoDay('2025-01-01')).toBe('01/01/2025');
    expect(periodLabel({ from: '2025-01-01', to: '2025-12-31' })).toBe('Período: 01/01/2025 até 31/12/2025');
  });
});
