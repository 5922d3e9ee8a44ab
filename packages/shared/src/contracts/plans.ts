import { z } from 'zod';
import { formatMoney } from '../format.ts';
import { messages } from '../messages.ts';

const a = messages.admin;
const p = messages.adminPlans;

/** The support a plan includes (specification §9: Email, Prioritário, Dedicado). */
export const SUPPORT_LEVELS = ['email', 'priority', 'dedicated'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];
export const SUPPORT_LEVEL_LABELS: Record<SupportLevel, string> = { email: 'Email', priority: 'Prioritário', dedicated: 'Dedicado' };

/** What a plan includes besides its limits: the rows of the comparison table (specification §9). */
export const planEntitlementsSchema = z.object({
  customDomain: z.boolean(),
  fullWhitelabel: z.boolean(),
  mobileApp: z.boolean(),
  advancedReports: z.boolean(),
  supportLevel: z.enum(SUPPORT_LEVELS),
  /** Guaranteed monthly uptime in percent, e.g. 99.9; null when the plan guarantees none. */
  slaUptimePercent: z.number().nullable(),
});
export type PlanEntitlements = z.infer<typeof planEntitlementsSchema>;

/** A plan the platform sells to clinics (specification §3 "plan (admin)"). Money in cents; null price = sob consulta. */
export const platformPlanSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  priceCents: z.number().int().nullable(),
  description: z.string().nullable(),
  maxPatients: z.number().int().nullable(),
  maxClinics: z.number().int().nullable(),
  features: z.array(z.string()),
  isActive: z.boolean(),
  popular: z.boolean(),
  ...planEntitlementsSchema.shape,
  /** Clinics currently on this plan. */
  clinicCount: z.number().int(),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PlatformPlanRecord = z.infer<typeof platformPlanSchema>;
export const platformPlanListSchema = z.object({ items: z.array(platformPlanSchema) });

/** A plan as the platform's landing page sells it: what its card shows, nothing of the back office (clinic counts). */
export const publicPlatformPlanSchema = platformPlanSchema.pick({
  id: true,
  name: true,
  priceCents: true,
  description: true,
  features: true,
  popular: true,
});
export type PublicPlatformPlan = z.infer<typeof publicPlatformPlanSchema>;
export const publicPlatformPlanListSchema = z.object({ items: z.array(publicPlatformPlanSchema) });

/** The highest patient or partner-clinic limit a plan can state; above it a plan is sold as unlimited (empty). */
export const PLAN_LIMIT_MAX = 1_000_000;
/** The highest monthly list price, in reais. */
const PRICE_MAX_REAIS = 1_000_000;

/** What a text field holds as a whole number: digits only (a stray 'e' or sign is not a number here). */
function typedInteger(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const typed = value.trim();
  if (typed === '') return null;
  return /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
}

/**
 * An optional limit: empty means unlimited (null); anything else must be a whole number from 1 to PLAN_LIMIT_MAX,
 * which also keeps it inside the database's integer column.
 */
const optionalLimit = z
  .preprocess(
    (value) => (value === undefined ? null : typedInteger(value)),
    z.number(a.integerInvalid).int(a.integerInvalid).positive(a.integerInvalid).max(PLAN_LIMIT_MAX, p.limitTooLarge).nullable(),
  )
  .optional()
  .transform((value) => value ?? null);

/**
 * Reais as people type them: "297", "297,00" or "89,9", "1.234,56" with the pt-BR thousands point, or "1234.56".
 * null when the text is none of these (so "1e", "-5" and "1.234.5" are refused, never guessed at).
 */
export function parseReais(text: string): number | null {
  const typed = text.trim();
  if (/^\d+([.,]\d{1,2})?$/.test(typed)) return Number(typed.replace(',', '.'));
  if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(typed)) return Number(typed.replace(/\./g, '').replace(',', '.'));
  return null;
}

/** Whole cents only: 297.5 is a price, 297.555 is not. */
function hasAtMostTwoDecimals(reais: number): boolean {
  const cents = reais * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

/** Cents as the price field shows them: "297,00" (pt-BR decimal comma, no thousands point to trip over). */
export function formatReaisInput(cents: number): string {
  return (cents / 100).toFixed(2).replace('.', ',');
}

/**
 * The price as typed, in reais: empty (or null) means "sob consulta", the plan has no list price (specification §9:
 * Enterprise). Anything else must be a number from zero up with at most two decimals (§5: step 0.01). The field
 * itself must be sent, so a client that forgets it does not turn a priced plan into "sob consulta".
 */
const planPrice = z.union([z.number(), z.string(), z.null()], a.priceInvalid).transform((value, ctx) => {
  if (value === null || (typeof value === 'string' && value.trim() === '')) return null;
  const reais = typeof value === 'number' ? value : parseReais(value);
  if (reais === null || !Number.isFinite(reais) || reais < 0 || reais > PRICE_MAX_REAIS || !hasAtMostTwoDecimals(reais)) {
    ctx.addIssue({ code: 'custom', message: a.priceInvalid });
    return z.NEVER;
  }
  return reais;
});

/** An SLA typed in percent, with a comma or a point; empty means none. */
function typedPercent(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return null;
  if (typeof value !== 'string') return value;
  const typed = value.trim();
  if (typed === '') return null;
  return /^\d+([.,]\d+)?$/.test(typed) ? Number(typed.replace(',', '.')) : Number.NaN;
}

/**
 * 'Novo Plano' / 'Editar Plano' (specification §5): name required; price in reais, numeric, step 0.01 (sent as
 * text or number, stored in cents), empty for "sob consulta"; features one per line with blank lines dropped; empty
 * limits mean unlimited.
 */
export const planFormSchema = z.object({
  name: z.string().trim().min(1, a.nameRequired).max(80),
  price: planPrice,
  description: z
    .string()
    .trim()
    .max(500)
    .nullish()
    .transform((value) => value || null),
  features: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : value.split('\n')).map((line) => line.trim()).filter(Boolean))
    // The same feature twice is one feature.
    .transform((lines) => [...new Set(lines)])
    .pipe(z.array(z.string().max(200)).min(1, a.featuresRequired).max(50)),
  maxPatients: optionalLimit,
  maxClinics: optionalLimit,
  popular: z.boolean().default(false),
  isActive: z.boolean().default(true),
  customDomain: z.boolean().default(true),
  fullWhitelabel: z.boolean().default(false),
  mobileApp: z.boolean().default(false),
  advancedReports: z.boolean().default(false),
  supportLevel: z.enum(SUPPORT_LEVELS, a.supportLevelInvalid).default('email'),
  /** Typed in percent (comma or dot); empty means no SLA. */
  slaUptimePercent: z
    .preprocess(typedPercent, z.number(a.slaInvalid).gt(0, a.slaInvalid).max(100, a.slaInvalid).nullable())
    .optional()
    .transform((value) => value ?? null),
});
export type PlanFormInput = z.input<typeof planFormSchema>;
export type PlanFormOutput = z.output<typeof planFormSchema>;

/** The three cards of /admin/planos, computed from the database. */
export const planSummarySchema = z.object({
  planCount: z.number().int(),
  /** Clinics that are active and on a plan: the platform's paying subscriptions. */
  activeSubscriptions: z.number().int(),
  mrrCents: z.number().int(),
  /** Change of MRR against the previous month in whole percent; null when there is nothing to compare with. */
  mrrChangePercent: z.number().int().nullable(),
});
export type PlanSummary = z.infer<typeof planSummarySchema>;

/** Reais (as typed in the form) to integer cents, without binary floating-point surprises. */
export function reaisToCents(reais: number): number {
  return Math.round(reais * 100);
}

/** A plan's monthly price as people read it: "R$ 297,00", or "Sob consulta" for a plan without one. */
export function formatPlanPrice(priceCents: number | null): string {
  return priceCents === null ? messages.admin.priceOnRequest : formatMoney(priceCents);
}
