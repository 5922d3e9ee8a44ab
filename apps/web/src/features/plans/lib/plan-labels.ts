import type { PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';

/** A limit of the plan; null means no limit. */
export function planLimitLabel(limit: number | null): string {
  return limit === null ? 'Ilimitado' : String(limit);
}

/** "+12% vs mês anterior": the sign of a rise is written, so a rise and a fall read differently; null shows nothing. */
export function mrrChangeLabel(percent: number | null): string | undefined {
  if (percent === null) return undefined;
  return `${percent > 0 ? '+' : ''}${percent}% vs mês anterior`;
}

/** Every feature any plan lists, in the order they first appear (cheapest plan first), without repeats. */
export function distinctFeatures(plans: readonly Pick<PlatformPlanRecord, 'features'>[]): string[] {
  return [...new Set(plans.flatMap((plan) => plan.features))];
}
