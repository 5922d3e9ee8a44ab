import type { PriceHistoryEntry, PriceTable, Service, ServiceForm, ServiceRemoval } from '@carteirinha/shared/contracts/services';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { saoPauloDay, saoPauloMidnight } from '../../lib/sao-paulo-time.ts';
import { plansOnSale } from '../subscription-plans/service.ts';
import { cardPriceOf, refreshPriceHistory, type PlanForPrices } from './price-history.ts';
import {
  deleteServiceRow,
  findServiceRow,
  insertServiceRow,
  listServiceRows,
  openPriceRows,
  priceHistoryOfService,
  priceRowsAt,
  serviceNameTaken,
  serviceUsedByVisits,
  updateServiceRow,
  type PriceRow,
  type ServiceRow,
} from './repository.ts';

type Scope = { clinicId: string };
type Actor = Scope & { userId: string };

const m = messages.services;
const DAY_MS = 24 * 60 * 60 * 1000;

function withCardPrices(row: ServiceRow, plans: readonly PlanForPrices[]): Service {
  return { ...row, cardPrices: plans.map((plan) => ({ planId: plan.id, planName: plan.name, ...cardPriceOf(row, plan) })) };
}

/** The clinic's price list, each service with its card price under every plan on sale. */
export async function listClinicServices(db: Database, scope: Scope): Promise<Service[]> {
  const [rows, plans] = await Promise.all([listServiceRows(db, scope), plansOnSale(db, scope)]);
  return rows.map((row) => withCardPrices(row, plans));
}

/** What 'Registrar Atendimento' reads of a service: its full price, and its own discount when the clinic set one. */
export async function serviceForVisit(db: Database, scope: Scope, id: string): Promise<ServiceRow> {
  const service = await findServiceRow(db, scope, id);
  if (!service || !service.isActive) throw new AppError('NOT_FOUND', messages.cards.serviceNotFound);
  return service;
}

async function assertNameFree(db: Database, scope: Scope, name: string, exceptId: string | null): Promise<void> {
  if (await serviceNameTaken(db, scope, name, exceptId)) throw new AppError('CONFLICT', m.duplicateName);
}

/**
 * Every write of a service: the row, its audit entry and the price history, in one transaction on the platform
 * connection with every statement bound to the caller's clinic (the audit trail is not tenant-writable).
 */
async function writeService(
  db: Database,
  actor: Actor,
  now: Date,
  action: string,
  write: (tx: Database) => Promise<ServiceRow | null>,
  details: Record<string, unknown>,
): Promise<Service> {
  return db.transaction(async (tx) => {
    const row = await write(tx);
    if (!row) throw new AppError('NOT_FOUND', m.notFound);
    const plans = await plansOnSale(tx, actor);
    await refreshPriceHistory(tx, actor, plans, now);
    await recordAudit(tx, { actorUserId: actor.userId, action, entity: 'service', entityId: row.id, clinicId: actor.clinicId, details });
    return withCardPrices(row, plans);
  });
}

/** 'Novo Serviço'. */
export async function createService(db: Database, actor: Actor, input: ServiceForm, now: Date): Promise<Service> {
  await assertNameFree(db, actor, input.name, null);
  return writeService(db, actor, now, 'service.created', (tx) => insertServiceRow(tx, actor, input, now), { ...input });
}

/** 'Editar': a new price opens a new stretch of the price history; the old price stays with its dates. */
export async function updateService(db: Database, actor: Actor, id: string, input: ServiceForm, now: Date): Promise<Service> {
  await assertNameFree(db, actor, input.name, id);
  return writeService(db, actor, now, 'service.updated', (tx) => updateServiceRow(tx, actor, id, input, now), { ...input });
}

/** 'Reativar': an archived service goes back on the price list. */
export async function restoreService(db: Database, actor: Actor, id: string, now: Date): Promise<Service> {
  return writeService(db, actor, now, 'service.restored', (tx) => updateServiceRow(tx, actor, id, { isActive: true }, now), {});
}

/**
 * 'Excluir': a service no visit used goes; one that visits used is archived — off the price list and the public
 * table, kept for its visits' record and its price history.
 */
export async function removeService(db: Database, actor: Actor, id: string, now: Date): Promise<ServiceRemoval> {
  return db.transaction(async (tx) => {
    const service = await findServiceRow(tx, actor, id);
    if (!service) throw new AppError('NOT_FOUND', m.notFound);
    const used = await serviceUsedByVisits(tx, actor, id);
    if (used) await updateServiceRow(tx, actor, id, { isActive: false }, now);
    else await deleteServiceRow(tx, actor, id);
    await refreshPriceHistory(tx, actor, await plansOnSale(tx, actor), now);
    const outcome = used ? 'archived' : 'deleted';
    await recordAudit(tx, { actorUserId: actor.userId, action: `service.${outcome}`, entity: 'service', entityId: id, clinicId: actor.clinicId, details: { name: service.name } });
    return { outcome };
  });
}

export async function serviceHistory(db: Database, scope: Scope, id: string): Promise<PriceHistoryEntry[]> {
  if (!(await findServiceRow(db, scope, id))) throw new AppError('NOT_FOUND', m.notFound);
  return priceHistoryOfService(db, scope, id);
}

function tableOf(date: string, rows: readonly PriceRow[]): PriceTable {
  const plans = new Map<string, string>();
  const items = new Map<string, PriceTable['items'][number]>();
  for (const row of rows) {
    if (row.planId === null) {
      items.set(row.serviceId, { serviceId: row.serviceId, name: row.serviceName, category: row.category, fullPriceCents: row.fullPriceCents, cardPrices: [] });
    }
  }
  for (const row of rows) {
    const item = items.get(row.serviceId);
    if (row.planId === null || !item || row.cardPriceCents === null || row.discountPercent === null) continue;
    plans.set(row.planId, row.planName ?? '');
    item.cardPrices.push({ planId: row.planId, discountPercent: row.discountPercent, cardPriceCents: row.cardPriceCents });
  }
  return {
    date,
    plans: [...plans].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name, 'pt-BR')),
    items: [...items.values()].sort((a, b) => a.name.localeCompare(b.name, 'pt-BR')),
  };
}

/**
 * The public price table (issue 25): today's, or as it read at the end of a past day in São Paulo, from the price
 * history. A day after today is refused: the table tells what was charged, not what will be.
 */
export async function publicPriceTable(db: Database, scope: Scope, date: string | undefined, now: Date): Promise<PriceTable> {
  const today = saoPauloDay(now);
  if (date !== undefined && date > today) throw new AppError('VALIDATION', messages.priceTable.dateFuture);
  if (date === undefined || date === today) return tableOf(today, await openPriceRows(db, scope));
  const endOfDay = new Date(saoPauloMidnight(date).getTime() + DAY_MS);
  return tableOf(date, await priceRowsAt(db, scope, endOfDay));
}
