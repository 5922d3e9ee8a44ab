/**
 * The plan an owner picked on the landing page's pricing card, kept in this browser until their clinic exists: the
 * address carries it (`?plano=`) through sign-up, but the e-mail confirmation link lands on the site's root, often
 * in another tab. Storage may be unavailable (private modes): then only the address carries it.
 */
const STORAGE_KEY = 'carteirinha.chosen-plan';

export function rememberChosenPlan(planId: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, planId);
  } catch {
    // Nothing to keep it in: the address still has it.
  }
}

export function rememberedChosenPlan(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function forgetChosenPlan(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing was kept.
  }
}
