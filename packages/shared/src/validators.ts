import { isValidCnpj } from '@brazilian-utils/brazilian-utils';
import { z } from 'zod';
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

/** Sub-domains the platform keeps for itself. */
export const RESERVED_SLUGS = new Set(['www', 'api', 'app', 'admin', 'auth', 'mail', 'smtp', 'static', 'assets', 'status', 'docs', 'blog']);

/** A clinic's address on the platform: `<slug>.<main domain>`; one DNS label. */
export const slugSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{1,38}[a-z0-9])$/, messages.tenancy.invalidSlug)
  .refine((value) => !RESERVED_SLUGS.has(value), messages.tenancy.reservedSlug);

export const hexColorSchema = z.string().regex(/^#[0-9a-fA-F]{6}$/, messages.tenancy.invalidColor).transform((v) => v.toLowerCase());
