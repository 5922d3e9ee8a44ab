import type { SubscriptionPlan } from '@carteirinha/shared/contracts/subscription-plans';

type Discounts = SubscriptionPlan['discounts'];

/** The word each discounted service is written with, singular, without accents. */
const SERVICE_WORDS: Record<keyof Discounts, string> = {
  consultas: 'consulta',
  exames: 'exame',
  procedimentos: 'procedimento',
};

/** Words that only link a service to its percentage ("Consultas com 30% de desconto", "30% off em exames"). */
const LINKING_WORDS = new Set(['com', 'de', 'do', 'da', 'em', 'nas', 'nos', 'na', 'no', 'as', 'os', 'a', 'o', 'e', 'para', 'todas', 'todos', 'desconto', 'descontos', 'off', 'ate']);

function plainWords(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/(\d+)\s*%/g, ' $1% ')
    .split(/[^\p{L}\p{N}%]+/u)
    .filter(Boolean);
}

/**
 * Whether a feature line says nothing but a discount the plan's discount box already shows: it names a discounted
 * service and its percentage, and every other word only links them.
 */
function repeatsDiscount(feature: string, discounts: Discounts): boolean {
  const words = plainWords(feature);
  return (Object.keys(SERVICE_WORDS) as (keyof Discounts)[]).some((service) => {
    const percent = discounts[service];
    if (percent <= 0) return false;
    const serviceWord = SERVICE_WORDS[service];
    const namesService = words.some((word) => word.startsWith(serviceWord));
    const namesPercent = words.includes(`${percent}%`);
    const rest = words.filter((word) => !word.startsWith(serviceWord) && word !== `${percent}%` && !LINKING_WORDS.has(word));
    return namesService && namesPercent && rest.length === 0;
  });
}

/**
 * A plan's feature lines without those that repeat its discounts: the clinic site shows the discounts in a box of
 * their own, and a clinic admin often writes them as features too ("Consultas com 30% de desconto").
 */
export function featuresBesidesDiscounts(features: readonly string[], discounts: Discounts): string[] {
  return features.filter((feature) => !repeatsDiscount(feature, discounts));
}
