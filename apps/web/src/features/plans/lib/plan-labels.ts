import { SUPPORT_LEVEL_LABELS, type PlatformPlanRecord } from '@carteirinha/shared/contracts/plans';
import { formatMessage, messages } from '@carteirinha/shared/messages';

const p = messages.adminPlans;
const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });

/** A limit of the plan; null means no limit. */
export function planLimitLabel(limit: number | null): string {
  return limit === null ? p.unlimited : String(limit);
}

/** "+12% vs mês anterior": the sign of a rise is written, so a rise and a fall read differently; null shows nothing. */
export function mrrChangeLabel(change: number | null): string | undefined {
  if (change === null) return undefined;
  return formatMessage(p.mrrChange, { change: `${change > 0 ? '+' : ''}${change}` });
}

/** The guaranteed uptime as the comparison table shows it: "99,9%", or "-" for a plan without an SLA. */
export function slaLabel(slaUptimePercent: number | null): string {
  return slaUptimePercent === null ? p.noSla : `${percent.format(slaUptimePercent)}%`;
}

/** "Email", "Prioritário" or "Dedicado" (specification §9). */
export function supportLabel(plan: Pick<PlatformPlanRecord, 'supportLevel'>): string {
  return SUPPORT_LEVEL_LABELS[plan.supportLevel];
}
