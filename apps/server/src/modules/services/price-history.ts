import { discountedAmountsOf, serviceDiscountOf, type CategoryDiscounts } from '@carteirinha/shared/contracts/services';
import type { Database } from '../../db/client.ts';
import {
  closePriceRow,
  deletePriceRow,
  insertPriceRows,
  listServiceRows,
  lockClinicPriceTable,
  openPriceRows,
  rewritePriceRow,
  type PriceRow,
  type ServiceRow,
} from './repository.ts';

type Scope = { clinicId: string };

/** A plan on sale, with what the price table needs of it. */
export type PlanForPrices = { id: string; name: string; discounts: CategoryDiscounts };

/** The card price of a service with a plan: the service's own discount where set, else the plan's for its category. */
export function cardPriceOf(service: Pick<ServiceRow, 'category' | 'discountPercent' | 'priceCents'>, plan: PlanForPrices): { discountPercent: number; cardPriceCents: number } {
  const discountPercent = serviceDiscountOf(service, plan.discounts);
  return { discountPercent, cardPriceCents: discountedAmountsOf(service.priceCents, discountPercent).finalCents };
}

/** The price table as it should read now: every active service's full price and its card price with each plan. */
export function priceRowsOf(services: readonly ServiceRow[], plans: readonly PlanForPrices[]): PriceRow[] {
  return services
    .filter((service) => service.isActive)
    .flatMap((service) => {
      const base = { serviceId: service.id, serviceName: service.name, category: service.category, fullPriceCents: service.priceCents };
      const full: PriceRow = { ...base, planId: null, planName: null, discountPercent: service.discountPercent, cardPriceCents: null };
      return [full, ...plans.map((plan) => ({ ...base, planId: plan.id, planName: plan.name, ...cardPriceOf(service, plan) }))];
    });
}

const keyOf = (row: Pick<PriceRow, 'serviceId' | 'planId'>) => `${row.serviceId}:${row.planId ?? ''}`;

function samePrice(a: PriceRow, b: PriceRow): boolean {
  return (
    a.serviceName === b.serviceName &&
    a.planName === b.planName &&
    a.category === b.category &&
    a.fullPriceCents === b.fullPriceCents &&
    a.discountPercent === b.discountPercent &&
    a.cardPriceCents === b.cardPriceCents
  );
}

/**
 * Brings the clinic's price history up to date with its services and plans on sale, as of `now` (the change's own
 * clock): a price that changed closes its row and opens a new one, a service archived or a plan taken off sale closes
 * its rows. Called in the transaction of every change that can move a price — a service written, a plan saved — so
 * the history says what the card price was on any day. Unchanged prices keep their row (and its start date).
 */
export async function refreshPriceHistory(tx: Database, scope: Scope, plans: readonly PlanForPrices[], now: Date): Promise<void> {
  await lockClinicPriceTable(tx, scope);
  const wanted = new Map(priceRowsOf(await listServiceRows(tx, scope), plans).map((row) => [keyOf(row), row]));
  const toOpen: PriceRow[] = [];
  for (const open of await openPriceRows(tx, scope)) {
    const { id, validFrom, ...current } = open;
    const next = wanted.get(keyOf(current));
    wanted.delete(keyOf(current));
    if (next && samePrice(current, next)) continue;
    // A row opened at this very instant (two changes in one request) is rewritten or dropped, never left empty.
    if (validFrom.getTime() >= now.getTime()) {
      if (next) await rewritePriceRow(tx, id, next);
      else await deletePriceRow(tx, id);
      continue;
    }
    await closePriceRow(tx, id, now);
    if (next) toOpen.push(next);
  }
  toOpen.push(...wanted.values());
  await insertPriceRows(tx, scope, toOpen, now);
}
