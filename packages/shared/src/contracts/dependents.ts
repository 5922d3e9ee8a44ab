import { z } from 'zod';
import { FULL_NAME_MAX_LENGTH, FULL_NAME_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';
import { cpfSchema } from '../validators.ts';
import { birthDateSchema } from './profiles.ts';
import { BILLING_CYCLES } from './subscription-plans.ts';

const m = messages.dependents;

/** How a dependent is related to the holder (stored as the key; shown with DEPENDENT_RELATIONSHIP_LABELS). */
export const DEPENDENT_RELATIONSHIPS = ['spouse', 'child', 'parent', 'sibling', 'other'] as const;
export type DependentRelationship = (typeof DEPENDENT_RELATIONSHIPS)[number];
export const DEPENDENT_RELATIONSHIP_LABELS: Record<DependentRelationship, string> = m.relationships;

/** One person the holder covers (Meu Perfil, 'Dependentes'), with the number of their own card once issued. */
export const dependentSchema = z.object({
  id: z.uuid(),
  fullName: z.string(),
  /** Digits only; null for a dependent recorded before CPFs were asked. */
  cpf: z.string().nullable(),
  /** yyyy-MM-dd. */
  birthDate: z.string().nullable(),
  relationship: z.enum(DEPENDENT_RELATIONSHIPS).nullable(),
  /** Their card's 16 digits; null until the cards job has issued it (a moment after adding). */
  cardNumber: z.string().nullable(),
});
export type Dependent = z.infer<typeof dependentSchema>;

/** Why 'Adicionar' is not offered: no live paid subscription, or the plan's people are all covered. */
export const ADD_DEPENDENT_BLOCKS = ['noSubscription', 'limitReached'] as const;

/**
 * GET /api/patient/dependents: the covered dependents and what adding or removing one does to the price, so the
 * screen shows the new price of each cycle before the patient confirms (computed by the same rule that charges it).
 */
export const dependentsOverviewSchema = z.object({
  items: z.array(dependentSchema),
  /** The plan's max_members − 1 (the holder counts as one); 0 without a subscription. */
  maxDependents: z.number().int().nonnegative(),
  addBlockedBy: z.enum(ADD_DEPENDENT_BLOCKS).nullable(),
  planName: z.string().nullable(),
  billingCycle: z.enum(BILLING_CYCLES).nullable(),
  /** The plan's price per dependent per cycle (0: dependents cost nothing more). */
  dependentPriceCents: z.number().int().nonnegative(),
  /** The price of each cycle now, and after one more or one fewer dependent (from the next charge). */
  amountCents: z.number().int().nonnegative(),
  amountWithOneMoreCents: z.number().int().nonnegative(),
  amountWithOneLessCents: z.number().int().nonnegative(),
});
export type DependentsOverview = z.infer<typeof dependentsOverviewSchema>;

const fullNameSchema = z.string().trim().min(FULL_NAME_MIN_LENGTH, messages.validation.fullNameMin).max(FULL_NAME_MAX_LENGTH, messages.validation.fullNameMax);
/** A string first, so a form starts from '' ('Selecione') and an unknown value gets the same message. */
const relationshipSchema = z.string({ error: m.relationshipRequired }).pipe(z.enum(DEPENDENT_RELATIONSHIPS, { error: m.relationshipRequired }));
const requiredBirthDateSchema = z.string({ error: m.birthDateRequired }).trim().min(1, m.birthDateRequired).pipe(birthDateSchema);

/** PATCH /api/patient/dependents/:id ('Editar'): the CPF is not here, it is read-only once given (like the holder's). */
export const dependentUpdateSchema = z.object({
  fullName: fullNameSchema,
  birthDate: requiredBirthDateSchema,
  relationship: relationshipSchema,
});
export type DependentUpdate = z.input<typeof dependentUpdateSchema>;

/** POST /api/patient/dependents ('Adicionar'): everything, the CPF included (one person's per clinic). */
export const dependentCreateSchema = dependentUpdateSchema.extend({
  cpf: z.string({ error: messages.validation.invalidCpf }).pipe(cpfSchema),
});
export type DependentCreate = z.input<typeof dependentCreateSchema>;
/** What the form holds: every field a string, as typed. */
export type DependentFormFields = DependentCreate;
export type DependentCreateValues = z.output<typeof dependentCreateSchema>;
