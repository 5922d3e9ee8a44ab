import { isValidCep, isValidCnpj, isValidCpf, isValidPhone } from '@brazilian-utils/brazilian-utils';
import { z } from 'zod';
import { digitsOnly } from './format.ts';
import { messages } from './messages.ts';

/** Keeps what identifies a CNPJ: digits and, for those issued from July 2026, uppercase letters. */
export function normalizeCnpj(value: string): string {
  return value.replace(/[^0-9a-zA-Z]/g, '').toUpperCase();
}

/** A CNPJ with valid check digits, numeric or alphanumeric (IN RFB 2.229/2024), stored as 14 characters. */
export const cnpjSchema = z
  .string()
  .transform(normalizeCnpj)
  .refine((value) => value.length === 14 && isValidCnpj(value, { version: 2 }), messages.tenancy.invalidCnpj);

/** A CPF with valid check digits, stored as its 11 digits. */
export const cpfSchema = z
  .string()
  .transform(digitsOnly)
  .refine((value) => value.length === 11 && isValidCpf(value), messages.validation.invalidCpf);

/** Keeps what identifies a CPF or CNPJ: digits and (CNPJs from July 2026) uppercase letters, no punctuation. */
export function normalizeCpfCnpj(value: string): string {
  return normalizeCnpj(value);
}

/** Whether a normalised document is a CPF (11 digits) or a CNPJ (14 characters) with valid check digits. */
export function isValidCpfCnpj(value: string): boolean {
  if (value.length === 11) return /^\d{11}$/.test(value) && isValidCpf(value);
  return value.length === 14 && isValidCnpj(value, { version: 2 });
}

/** The payer's CPF or CNPJ at checkout (specification §3 cpfCnpj), check digits verified, stored without punctuation. */
export const cpfCnpjSchema = z
  .string()
  .max(32, messages.checkoutRules.invalidCpfCnpj)
  .transform(normalizeCpfCnpj)
  .refine(isValidCpfCnpj, messages.checkoutRules.invalidCpfCnpj);

/** The Luhn check every card number carries (ISO/IEC 7812): catches a mistyped digit before the provider does. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card's expiry as typed (month 1–12, year yy or yyyy); null when it is not a date. */
export function cardExpiryOf(month: string, year: string): { month: number; year: number } | null {
  if (!/^\d{1,2}$/.test(month) || !/^(\d{2}|\d{4})$/.test(year)) return null;
  const monthNumber = Number(month);
  if (monthNumber < 1 || monthNumber > 12) return null;
  return { month: monthNumber, year: year.length === 2 ? 2000 + Number(year) : Number(year) };
}

/** A card is valid through the last day of its expiry month. */
export function isCardExpired(expiry: { month: number; year: number }, now: Date): boolean {
  const endOfMonth = Date.UTC(expiry.year, expiry.month, 1);
  return endOfMonth <= now.getTime();
}

/** The digits of a phone, without Brazil's country code (+55) when it was typed: area code and number. */
export function normalizePhone(value: string): string {
  const digits = digitsOnly(value);
  return (digits.length === 12 || digits.length === 13) && digits.startsWith('55') ? digits.slice(2) : digits;
}

/**
 * A Brazilian phone with its area code, mobile (11 digits) or landline (10), stored as digits only:
 * "(11) 98765-4321" → "11987654321". Shown masked again with `formatPhone`.
 */
export const phoneSchema = z
  .string()
  .transform(normalizePhone)
  .refine((value) => (value.length === 10 || value.length === 11) && isValidPhone(value), messages.validation.invalidPhone);

/** A CEP (8 digits), stored as digits only. */
export const cepSchema = z
  .string()
  .transform(digitsOnly)
  .refine((value) => value.length === 8 && isValidCep(value), messages.validation.invalidCep);

/**
 * Sub-domains the platform keeps for itself (issue 12, item 21): host names that mean something to browsers and
 * resolvers (`localhost`), the platform's own services and mail, the SPA's portal paths, and names that would pass
 * for the platform itself. A clinic named like one of them must pick another address, in onboarding and in the
 * admin's 'Nova Clínica' alike (both parse `slugSchema`).
 */
export const RESERVED_SLUGS = new Set([
  // Names resolvers and browsers treat specially.
  'localhost',
  'localdomain',
  'broadcasthost',
  'wpad',
  'autoconfig',
  'autodiscover',
  'mta-sts',
  // The platform's own hosts and services.
  'www',
  'api',
  'app',
  'admin',
  'auth',
  'sso',
  'oauth',
  'login',
  'static',
  'assets',
  'cdn',
  'media',
  'uploads',
  'files',
  'status',
  'health',
  'docs',
  'blog',
  'help',
  'ajuda',
  'suporte',
  'support',
  'dev',
  'staging',
  'sandbox',
  'homologacao',
  'teste',
  'test',
  // Mail.
  'mail',
  'email',
  'webmail',
  'smtp',
  'imap',
  'pop',
  'pop3',
  'postmaster',
  'hostmaster',
  'webmaster',
  'abuse',
  'noreply',
  'no-reply',
  // The SPA's portals and the platform's name.
  'clinica',
  'clinicas',
  'paciente',
  'pacientes',
  'carteirinha',
  'onboarding',
  'cadastro',
  'entrar',
]);

/** Punycode labels (`xn--…`) can spell a look-alike of another clinic's or the platform's name: none is given out. */
function isReservedSlug(value: string): boolean {
  return RESERVED_SLUGS.has(value) || value.startsWith('xn--');
}

/** A clinic's address on the platform: `<slug>.<main domain>`; one DNS label. */
export const slugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, messages.tenancy.invalidSlug)
  .refine((value) => !isReservedSlug(value), messages.tenancy.reservedSlug);

export const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, messages.tenancy.invalidColor).transform((v) => v.toLowerCase());
