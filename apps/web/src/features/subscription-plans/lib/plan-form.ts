import { formatReaisInput } from '@carteirinha/shared/contracts/plans';
import { subscriptionPlanFormSchema, type SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';
import { messages } from '@carteirinha/shared/messages';
import { z } from 'zod';
// Relative, not '@/lib': the unit tests run without the web app's path alias.
import { reaisTextOf, typedReaisToCents } from '../../../lib/reais';

const shape = subscriptionPlanFormSchema.shape;

/**
 * Reais as typed ("89,90", "R$ 1.234,56") to integer cents, then the shared schema's own limits. An empty optional
 * amount (the adhesion fee, the dependent's price) is zero: none.
 */
function moneyText(cents: z.ZodType<number, number>, { emptyIsZero }: { emptyIsZero: boolean }) {
  return z
    .string()
    .transform((typed, context) => {
      const text = reaisTextOf(typed);
      if (text === '' && emptyIsZero) return 0;
      const cents = typedReaisToCents(text);
      if (cents === null) {
        context.addIssue({ code: 'custom', message: messages.clinicPlans.moneyInvalid });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(cents);
}

/** The features textarea: one per line, blank lines dropped (as the admin's plan form, specification §5). */
const featureLines = z
  .string()
  .transform((text) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== ''),
  )
  .pipe(shape.features);

/**
 * /clinica/planos' form: the shared request schema (`subscriptionPlanFormSchema`), with money typed in reais and the
 * features one per line. Its output is exactly the request body.
 */
export const clinicPlanFormSchema = subscriptionPlanFormSchema.extend({
  priceCents: moneyText(shape.priceCents, { emptyIsZero: false }),
  dependentPriceCents: moneyText(shape.dependentPriceCents, { emptyIsZero: true }),
  adhesionFeeCents: moneyText(shape.adhesionFeeCents, { emptyIsZero: true }),
  features: featureLines,
});
export type ClinicPlanFormInput = z.input<typeof clinicPlanFormSchema>;
export type ClinicPlanFormOutput = z.output<typeof clinicPlanFormSchema>;

/** Specification §9's display discounts, the defaults of a new plan (DESIGN.md §2: 30 / 25 / 20). */
const DEFAULT_DISCOUNTS = { consultas: 30, exames: 25, procedimentos: 20 };

/** What the form starts with: the plan being edited, or a new plan's defaults. */
export function planFormValues(plan: SubscriptionPlan | null): ClinicPlanFormInput {
  if (!plan) {
    return {
      name: '',
      description: '',
      priceCents: '',
      dependentPriceCents: '',
      adhesionFeeCents: '',
      billingCycle: 'monthly',
      features: '',
      maxMembers: 1,
      discounts: DEFAULT_DISCOUNTS,
      waitingDays: 0,
      isActive: true,
    };
  }
  return {
    name: plan.name,
    description: plan.description ?? '',
    priceCents: formatReaisInput(plan.priceCents),
    dependentPriceCents: plan.dependentPriceCents > 0 ? formatReaisInput(plan.dependentPriceCents) : '',
    adhesionFeeCents: plan.adhesionFeeCents > 0 ? formatReaisInput(plan.adhesionFeeCents) : '',
    billingCycle: plan.billingCycle,
    features: plan.features.join('\n'),
    maxMembers: plan.maxMembers,
    discounts: plan.discounts,
    waitingDays: plan.waitingDays,
    isActive: plan.isActive,
  };
}
