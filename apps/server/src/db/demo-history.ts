/**
 * Clínica Demo's past (issue 25): something real on every clinic screen of the demo — its contact data and hours, a
 * price list whose prices changed (the public table's history), a second receptionist, and twelve weeks of visits and
 * validations of the demo patient (some cancelled with a reason, one under way, some booked ahead), written as the
 * desk would have written them; the payouts of the months its charges were received (issue 26), all but the last
 * paid; and its accredited network around Avenida Paulista (issue 26). Idempotent: each part is a no-op once it exists.
 */
import { and, asc, eq, isNull, lt, min } from 'drizzle-orm';
import type { NetworkPlaceForm } from '@carteirinha/shared/contracts/network';
import type { ServiceCategory } from '@carteirinha/shared/contracts/services';
import type { Database } from './client.ts';
import { cardValidations, cards, clinics, companyMemberships, networkPlaces, payments, payouts, services, subscriptionPlans, subscriptions, visits } from './schema.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import { buildClinicPayout, payoutMonth, previousPayoutMonth } from '../modules/payouts/build.ts';
import { nextYearMonth, saoPauloDay, saoPauloMidnight } from '../lib/sao-paulo-time.ts';
import { issueCardsForSubscription } from '../modules/cards/issue.ts';
import { confirmMemberImport, previewMemberImport } from '../modules/members/import-service.ts';
import { createPlace } from '../modules/network/service.ts';
import { createService, updateService } from '../modules/services/service.ts';
import { CARD_WORK_QUEUE, cardWorkSchema } from '../modules/subscriptions/follow-ups.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_DAYS = 84;

type Actor = { clinicId: string; userId: string };

/** Contact data and opening hours, for Configurações and the clinic's site; only where the clinic has none yet. */
export async function ensureDemoClinicDetails(db: Database, clinicId: string): Promise<void> {
  await db
    .update(clinics)
    .set({
      phone: '1133334444',
      contactEmail: 'contato@clinicademo.com.br',
      postalCode: '01310100',
      street: 'Avenida Paulista',
      streetNumber: '1578',
      addressComplement: 'Conjunto 41',
      district: 'Bela Vista',
      openingHours: { weekdays: { open: '08:00', close: '18:00' }, saturday: { open: '08:00', close: '12:00' } },
    })
    .where(and(eq(clinics.id, clinicId), isNull(clinics.phone)));
}

const DEMO_SERVICES: { name: string; category: ServiceCategory; priceCents: number; discountPercent: number | null }[] = [
  { name: 'Consulta clínica geral', category: 'consulta', priceCents: 18000, discountPercent: null },
  { name: 'Consulta pediátrica', category: 'consulta', priceCents: 22000, discountPercent: null },
  { name: 'Hemograma completo', category: 'exame', priceCents: 8000, discountPercent: null },
  { name: 'Ultrassom abdominal', category: 'exame', priceCents: 25000, discountPercent: 35 },
  { name: 'Limpeza de pele', category: 'procedimento', priceCents: 15000, discountPercent: null },
];

/**
 * The price list as the clinic's admin made it four months ago, and a new price for the general consultation a month
 * ago: written through the services module, so the price history and the audit trail are the real ones.
 */
export async function ensureDemoServices(db: Database, actor: Actor, now: Date): Promise<void> {
  const [existing] = await db.select({ id: services.id }).from(services).where(eq(services.clinicId, actor.clinicId)).limit(1);
  if (existing) return;
  const since = new Date(now.getTime() - 120 * DAY_MS);
  const created = [];
  for (const service of DEMO_SERVICES) created.push(await createService(db, actor, service, since));
  const [consulta] = created;
  const [consultaForm] = DEMO_SERVICES;
  if (consulta && consultaForm) await updateService(db, actor, consulta.id, { ...consultaForm, priceCents: 20000 }, new Date(now.getTime() - 30 * DAY_MS));
}

/** A São Paulo working hour of the day `daysAgo` before `now` (09:00–17:00, spread by the index). */
function instantOf(now: Date, daysAgo: number, index: number): Date {
  const day = new Date(now.getTime() - daysAgo * DAY_MS);
  day.setUTCHours(12 + (index % 8), (index * 17) % 60, 0, 0);
  return day;
}

function amountsOf(priceCents: number, percent: number): { discountCents: number; finalCents: number } {
  const discountCents = Math.round((priceCents * percent) / 100);
  return { discountCents, finalCents: priceCents - discountCents };
}

/**
 * Twelve weeks of the demo patient's visits (two or three a week, mostly concluded, a few cancelled with a reason),
 * one under way today and two booked for the coming days, each with the validation that preceded it.
 */
export async function ensureDemoVisits(db: Database, clinicId: string, patientUserId: string, registrars: string[], now: Date): Promise<void> {
  const [already] = await db.select({ id: visits.id }).from(visits).where(eq(visits.clinicId, clinicId)).limit(1);
  if (already) return;
  const [card] = await db
    .select({ id: cards.id, subscriptionId: cards.subscriptionId })
    .from(cards)
    .where(and(eq(cards.clinicId, clinicId), eq(cards.holderUserId, patientUserId), isNull(cards.dependentId)))
    .limit(1);
  if (!card) return;
  const [plan] = await db
    .select({ consulta: subscriptionPlans.discountConsultas, exame: subscriptionPlans.discountExames, procedimento: subscriptionPlans.discountProcedimentos })
    .from(subscriptions)
    .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
    .where(eq(subscriptions.id, card.subscriptionId))
    .limit(1);
  const priceList = await db.select().from(services).where(and(eq(services.clinicId, clinicId), eq(services.isActive, true)));
  const [firstService] = priceList;
  if (!plan || !firstService) return;
  const serviceAt = (position: number) => priceList[position % priceList.length] ?? firstService;

  const rows: (typeof visits.$inferInsert)[] = [];
  const validations: (typeof cardValidations.$inferInsert)[] = [];
  const visitOf = (service: (typeof priceList)[number], performedAt: Date, index: number) => {
    const percent = service.discountPercent ?? plan[service.category];
    const registeredBy = registrars[index % registrars.length] ?? null;
    return {
      clinicId,
      cardId: card.id,
      subscriptionId: card.subscriptionId,
      patientUserId,
      serviceId: service.id,
      serviceName: service.name,
      category: service.category,
      originalCents: service.priceCents,
      discountPercent: percent,
      ...amountsOf(service.priceCents, percent),
      performedAt,
      createdBy: registeredBy,
      createdAt: performedAt,
      updatedAt: performedAt,
    };
  };
  let index = 0;
  for (let daysAgo = HISTORY_DAYS; daysAgo >= 1; daysAgo -= daysAgo % 3 === 0 ? 2 : 3) {
    const service = serviceAt(index);
    const performedAt = instantOf(now, daysAgo, index);
    const cancelled = index % 9 === 4;
    rows.push({
      ...visitOf(service, performedAt, index),
      status: cancelled ? 'cancelado' : 'concluido',
      ...(cancelled ? { cancelReason: 'Paciente não compareceu', canceledAt: performedAt, statusChangedAt: performedAt } : {}),
    });
    validations.push({ clinicId, cardId: card.id, userId: registrars[index % registrars.length] ?? null, method: 'token', result: 'valid', createdAt: new Date(performedAt.getTime() - 5 * 60_000) });
    index += 1;
  }
  rows.push({ ...visitOf(firstService, new Date(now.getTime() - 20 * 60_000), index), status: 'em_andamento', professional: 'Dra. Helena Costa' });
  for (const [days, professional] of [[2, 'Dra. Helena Costa'], [5, 'Dr. Rafael Lima']] as const) {
    index += 1;
    const service = serviceAt(index);
    rows.push({ ...visitOf(service, instantOf(now, -days, index), index), status: 'aguardando', professional, bookedAt: now, createdAt: now, updatedAt: now });
  }
  await db.insert(visits).values(rows);
  await db.insert(cardValidations).values(validations);
}

/**
 * The demo's payouts, built by the monthly job's own code for every closed month since the first charge, oldest first;
 * all but the newest paid on the 5th of the month after, by the platform admin, as 'Marcar como pago' leaves them.
 */
export async function ensureDemoPayouts(db: Database, clinicId: string, adminUserId: string, now: Date): Promise<void> {
  const [first] = await db.select({ paidAt: min(payments.paidAt) }).from(payments).where(eq(payments.clinicId, clinicId));
  if (!first?.paidAt) return;
  const last = previousPayoutMonth(now);
  for (let yearMonth = saoPauloDay(first.paidAt).slice(0, 7); yearMonth <= last.period.slice(0, 7); yearMonth = nextYearMonth(yearMonth)) {
    await buildClinicPayout(db, clinicId, payoutMonth(yearMonth), now);
  }
  const older = await db
    .select({ id: payouts.id, period: payouts.period })
    .from(payouts)
    .where(and(eq(payouts.clinicId, clinicId), eq(payouts.status, 'pendente'), lt(payouts.period, last.period)))
    .orderBy(asc(payouts.period));
  for (const payout of older) {
    const paidAt = new Date(saoPauloMidnight(`${nextYearMonth(payout.period.slice(0, 7))}-05`).getTime() + 10 * 60 * 60 * 1000);
    await db.update(payouts).set({ status: 'pago', paidAt, paidBy: adminUserId, updatedAt: paidAt }).where(eq(payouts.id, payout.id));
  }
}

/** Clínica Demo's company members (issue 26): a construction company that pays for four of its people. */
const DEMO_COMPANY = { name: 'Construtora Horizonte Ltda', cnpj: '11222333000181' };
const DEMO_EMPLOYEES_CSV = [
  'nome;CPF;e-mail;data de nascimento;telefone',
  'Marcos Pereira;390.533.447-05;marcos.pereira@horizonte.example;12/04/1985;(11) 98765-4321',
  'Juliana Costa;714.287.938-60;juliana.costa@horizonte.example;03/09/1992;',
  'Roberto Almeida;877.482.488-00;roberto.almeida@horizonte.example;;(11) 97654-3210',
  'Fernanda Ribeiro;153.509.460-56;fernanda.ribeiro@horizonte.example;28/01/1979;',
].join('\r\n');
const COMPANY_PAID_DAYS = 180;

/**
 * A company-paid group imported as the clinic's admin would import it ('Importar CSV', through the import's own
 * service: preview, then confirmation), so Pacientes shows members from an import and the validation desk finds their
 * cards. The made-up addresses get no invitation e-mail (the invitation jobs are left out), and the cards the import
 * asks of the cards module are issued here at once, as for the demo patient. A no-op once the company is recorded.
 */
export async function ensureDemoCompanyMembers(db: Database, actor: Actor, cardBox: SecretBox, now: Date): Promise<void> {
  const [existing] = await db
    .select({ id: companyMemberships.id })
    .from(companyMemberships)
    .where(and(eq(companyMemberships.clinicId, actor.clinicId), eq(companyMemberships.cnpj, DEMO_COMPANY.cnpj)))
    .limit(1);
  if (existing) return;
  const [plan] = await db
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.clinicId, actor.clinicId), eq(subscriptionPlans.isActive, true), eq(subscriptionPlans.awaitingReview, false)))
    .orderBy(subscriptionPlans.priceCents)
    .limit(1);
  if (!plan) return;
  const cardWork: string[] = [];
  const jobs = {
    enqueue: (queue: string, payload: Record<string, unknown> = {}) => {
      const work = cardWorkSchema.safeParse(payload);
      if (queue === CARD_WORK_QUEUE && work.success && work.data.kind === 'issue') cardWork.push(work.data.subscriptionId);
      return Promise.resolve(null);
    },
    kick: () => undefined,
  };
  const deps = { db, jobs, now: () => now };
  const request = {
    planId: plan.id,
    payer: 'company' as const,
    companyName: DEMO_COMPANY.name,
    cnpj: DEMO_COMPANY.cnpj,
    validUntil: saoPauloDay(new Date(now.getTime() + COMPANY_PAID_DAYS * DAY_MS)),
    fileBase64: Buffer.from(DEMO_EMPLOYEES_CSV, 'utf8').toString('base64'),
  };
  const preview = await previewMemberImport(deps, actor, request);
  const expectedLines = preview.rows.filter((row) => row.errors.length === 0).map((row) => row.line);
  if (expectedLines.length === 0) return;
  await confirmMemberImport(deps, actor, { ...request, expectedLines });
  for (const subscriptionId of cardWork) await db.transaction((tx) => issueCardsForSubscription(tx, subscriptionId, cardBox));
}

/** Clínica Demo's accredited network: its own unit on Avenida Paulista and, a short walk or ride away, partners. */
const DEMO_NETWORK: Omit<NetworkPlaceForm, 'lastConfirmedOn'>[] = [
  {
    name: 'Clínica Demo - Unidade Paulista',
    category: 'unidade_propria',
    address: 'Avenida Paulista, 1578, conjunto 41 - Bela Vista, São Paulo - SP',
    phone: '1133334444',
    hours: 'Seg a Sex, 8h às 18h; Sáb, 8h às 12h',
    services: ['Consulta clínica geral', 'Consulta pediátrica', 'Ultrassom abdominal', 'Limpeza de pele'],
    latitude: -23.5614,
    longitude: -46.6559,
  },
  {
    name: 'Clínica Parceira Jardins',
    category: 'clinica_parceira',
    address: 'Rua Augusta, 2690 - Jardins, São Paulo - SP',
    phone: '1130642200',
    hours: 'Seg a Sex, 7h às 19h',
    services: ['Cardiologia', 'Dermatologia', 'Ortopedia'],
    latitude: -23.5667,
    longitude: -46.6648,
  },
  {
    name: 'Laboratório Análises Consolação',
    category: 'laboratorio',
    address: 'Rua da Consolação, 2302 - Consolação, São Paulo - SP',
    phone: '1132561100',
    hours: 'Seg a Sáb, 6h às 14h',
    services: ['Hemograma completo', 'Exames de sangue', 'Urina tipo 1'],
    latitude: -23.5532,
    longitude: -46.6622,
  },
  {
    name: 'Clínica Parceira Vila Mariana',
    category: 'clinica_parceira',
    address: 'Rua Domingos de Morais, 1200 - Vila Mariana, São Paulo - SP',
    phone: '1155741300',
    hours: 'Seg a Sex, 8h às 20h',
    services: ['Oftalmologia', 'Ginecologia'],
    latitude: -23.5893,
    longitude: -46.6365,
  },
];

/** The accredited network, written through the network module as the clinic's admin would, confirmed last week. */
export async function ensureDemoNetwork(db: Database, actor: Actor, now: Date): Promise<void> {
  const [existing] = await db.select({ id: networkPlaces.id }).from(networkPlaces).where(eq(networkPlaces.clinicId, actor.clinicId)).limit(1);
  if (existing) return;
  const lastConfirmedOn = saoPauloDay(new Date(now.getTime() - 7 * DAY_MS));
  for (const place of DEMO_NETWORK) await createPlace(db, actor, { ...place, lastConfirmedOn }, now);
}
