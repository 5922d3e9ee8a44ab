/** Formatters for what a user reads: pt-BR, money in BRL, dates in America/Sao_Paulo. */

const TIME_ZONE = 'America/Sao_Paulo';

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const date = new Intl.DateTimeFormat('pt-BR', { timeZone: TIME_ZONE, day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** 123456 → "R$ 1.234,56" (Intl puts a no-break space after R$; we keep a plain space so text matches). */
export function formatMoney(cents: number): string {
  return money.format(cents / 100).replace(/\u00a0/g, ' ');
}

/** → "dd/MM/yyyy" in São Paulo time. */
export function formatDate(value: Date | string): string {
  return date.format(typeof value === 'string' ? new Date(value) : value);
}

/** → "dd/MM/yyyy HH:mm" in São Paulo time. */
export function formatDateTime(value: Date | string): string {
  return dateTime.format(typeof value === 'string' ? new Date(value) : value).replace(',', '');
}

/** '2025-01-31' → '31/01/2025', read as the calendar day it names (no time zone can move it to the day before). */
export function formatIsoDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

/**
 * A CNPJ as people write it, "00.000.000/0000-00". Accepts the 14 characters with or without the mask; letters (the
 * alphanumeric CNPJ of IN RFB 2.229/2024) are shown in upper case. Anything that is not 14 characters is returned
 * unchanged, so a bad value is visible rather than hidden behind a half-applied mask.
 */
export function formatCnpj(value: string): string {
  const compact = value.replace(/[^0-9a-zA-Z]/g, '').toUpperCase();
  const parts = /^([0-9A-Z]{2})([0-9A-Z]{3})([0-9A-Z]{3})([0-9A-Z]{4})([0-9]{2})$/.exec(compact);
  if (!parts) return value;
  const [, a, b, c, branch, checkDigits] = parts;
  return `${a}.${b}.${c}/${branch}-${checkDigits}`;
}

/** Only the digits of what was typed: how CPF, phone and CEP are stored and sent. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * Applies a mask to a value whose digits fit one of the patterns (each `0` takes a digit); anything else is returned
 * unchanged, so a half-typed or wrong value stays visible as typed instead of half-masked.
 */
function maskDigits(value: string, patterns: readonly string[]): string {
  const digits = digitsOnly(value);
  const pattern = patterns.find((candidate) => candidate.replace(/[^0]/g, '').length === digits.length);
  if (!pattern) return value;
  let next = 0;
  return pattern.replace(/0/g, () => digits[next++] ?? '');
}

/** A CPF as people write it, "000.000.000-00"; anything that is not 11 digits is returned unchanged. */
export function formatCpf(value: string): string {
  return maskDigits(value, ['000.000.000-00']);
}

/**
 * A Brazilian phone with its area code: "(11) 98765-4321" (mobile, 11 digits) or "(11) 3000-0000" (landline,
 * 10 digits); anything else is returned unchanged.
 */
export function formatPhone(value: string): string {
  return maskDigits(value, ['(00) 0000-0000', '(00) 00000-0000']);
}

/** A CEP as the Correios write it, "00000-000"; anything that is not 8 digits is returned unchanged. */
export function formatCep(value: string): string {
  return maskDigits(value, ['00000-000']);
}

/**
 * "do plano Família", or "do Plano Família" for a plan whose name already says it is one: a clinic names its plans
 * freely, and "do plano Plano Família" is what a sentence got by putting the word before every name (issue 23).
 */
export function ofPlan(planName: string): string {
  const name = planName.trim();
  return /^plano\b/i.test(name) ? `do ${name}` : `do plano ${name}`;
}
