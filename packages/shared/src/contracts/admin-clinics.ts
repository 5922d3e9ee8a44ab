import { z } from 'zod';
import { messages } from '../messages.ts';
import { cnpjSchema, slugSchema } from '../validators.ts';
import { CLINIC_STATUSES } from './clinics.ts';

const a = messages.admin;
const m = messages.adminClinics;

/** A host name of a clinic's own domain: two or more DNS labels, lower-case. */
export const hostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, a.invalidHost);

/**
 * 'Nova Clínica' / 'Editar Clínica' (specification §2, §5; issue 4: CNPJ check digits, unique address). Every rule
 * names its pt-BR message, so the server's 400 says the same as the field under the input.
 */
export const clinicFormSchema = z.object({
  name: z.string(a.nameRequired).trim().min(1, a.nameRequired).max(120, m.nameTooLong),
  cnpj: z.string(messages.tenancy.invalidCnpj).pipe(cnpjSchema),
  slug: z.string(messages.tenancy.invalidSlug).pipe(slugSchema),
  /** Optional own domain; empty means none. */
  domain: z
    .union([z.literal(''), hostSchema])
    .nullish()
    .transform((value) => (value ? value : null)),
  planId: z.uuid(m.planInvalid).nullable(),
  status: z.enum(CLINIC_STATUSES, m.statusInvalid).default('active'),
  city: z
    .string(m.cityTooLong)
    .trim()
    .max(80, m.cityTooLong)
    .nullish()
    .transform((v) => v || null),
  state: z
    .string(m.stateInvalid)
    .trim()
    .toUpperCase()
    // Empty is no state; anything else is a two-letter UF.
    .refine((value) => value === '' || /^[A-Z]{2}$/.test(value), m.stateInvalid)
    .nullish()
    .transform((v) => v || null),
});
export type ClinicFormInput = z.input<typeof clinicFormSchema>;
export type ClinicFormOutput = z.output<typeof clinicFormSchema>;

/** What the clinic form needs to know about the plan chosen. */
export type ClinicPlanFacts = { id: string; isActive: boolean; customDomain: boolean };

/** A rule of the clinic form broken, with the field it belongs under. */
export type ClinicFormIssue = { field: 'planId' | 'domain'; message: string };

/**
 * Whether the chosen plan can take this clinic: it must exist, be active (a clinic may stay on the deactivated plan
 * it already has), and include the custom domain when one is typed (specification §9 comparison table). `plan` is
 * null when `planId` names no plan. The server and the form both ask, so the message is the same in either place.
 */
export function clinicPlanIssue(
  form: Pick<ClinicFormOutput, 'planId' | 'domain'>,
  plan: ClinicPlanFacts | null,
  currentPlanId: string | null,
): ClinicFormIssue | null {
  if (form.planId !== null && plan === null) return { field: 'planId', message: m.planInvalid };
  if (plan && !plan.isActive && plan.id !== currentPlanId) return { field: 'planId', message: m.planInactive };
  if (form.domain && !plan?.customDomain) return { field: 'domain', message: m.domainNeedsPlan };
  return null;
}

/**
 * Whether a host is the platform's main domain or one of its sub-domains: those addresses are the platform's own
 * (`<slug>.<main domain>` is how every clinic is already reached), so no clinic may claim one as its domain.
 */
export function isOnMainDomain(host: string, mainDomain: string): boolean {
  const domain = mainDomain.toLowerCase();
  return host === domain || host.endsWith(`.${domain}`);
}
