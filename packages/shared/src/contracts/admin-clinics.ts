import { z } from 'zod';
import { messages } from '../messages.ts';
import { cnpjSchema, slugSchema } from '../validators.ts';
import { CLINIC_STATUSES } from './clinics.ts';

const a = messages.admin;

/** A host name of a clinic's own domain: two or more DNS labels, lower-case. */
export const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, a.invalidHost);

/** 'Nova Clínica' / 'Editar Clínica' (specification §2, §5; issue 4: CNPJ check digits, unique address). */
export const clinicFormSchema = z.object({
  name: z.string().trim().min(1, a.nameRequired).max(120),
  cnpj: cnpjSchema,
  slug: slugSchema,
  /** Optional own domain; empty means none. */
  domain: z
    .union([z.literal(''), hostSchema])
    .nullish()
    .transform((value) => (value ? value : null)),
  planId: z.uuid().nullable(),
  status: z.enum(CLINIC_STATUSES).default('active'),
  city: z.string().trim().max(80).nullish().transform((v) => v || null),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/)
    .or(z.literal(''))
    .nullish()
    .transform((v) => v || null),
});
export type ClinicFormInput = z.input<typeof clinicFormSchema>;
export type ClinicFormOutput = z.output<typeof clinicFormSchema>;
