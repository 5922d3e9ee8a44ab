import type { ServiceCategory } from '@carteirinha/shared/contracts/services';
import type { CreateVisitRequest, Visit } from '@carteirinha/shared/contracts/visits';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { visits } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { cardBenefitsState } from '../cards/card-benefits.ts';
import { findClinicCard, type CardFacts } from '../cards/repository.ts';
import { findService } from '../services/repository.ts';
import { and, eq, isNull } from 'drizzle-orm';
import { findClinicVisit } from './repository.ts';

type Actor = { userId: string; clinicId: string };

/** The plan's discount for a category of service (DESIGN.md §2: consultas / exames / procedimentos). */
export function discountPercentOf(card: Pick<CardFacts, 'discountConsultas' | 'discountExames' | 'discountProcedimentos'>, category: ServiceCategory): number {
  switch (category) {
    case 'consulta':
      return card.discountConsultas;
    case 'exame':
      return card.discountExames;
    case 'procedimento':
      return card.discountProcedimentos;
  }
}

/** The visit's amounts: the discount rounded to the cent (half up), the final value what is left. */
export function visitAmountsOf(originalCents: number, discountPercent: number): { discountCents: number; finalCents: number } {
  const discountCents = Math.round((originalCents * discountPercent) / 100);
  return { discountCents, finalCents: originalCents - discountCents };
}

type ChosenService = { serviceId: string | null; name: string; category: ServiceCategory; priceCents: number };

async function chosenServiceOf(db: Database, actor: Actor, input: CreateVisitRequest): Promise<ChosenService> {
  if (input.serviceId) {
    const service = await findService(db, actor, input.serviceId);
    if (!service) throw new AppError('NOT_FOUND', messages.cards.serviceNotFound);
    return { serviceId: service.id, name: service.name, category: service.category, priceCents: service.priceCents };
  }
  if (!input.serviceName || !input.category || input.priceCents === undefined) throw new AppError('VALIDATION', messages.cards.visitServiceRequired);
  return { serviceId: null, name: input.serviceName, category: input.category, priceCents: input.priceCents };
}

/**
 * 'Registrar Atendimento': the card must validate now for this clinic (the same rule as the validation), the
 * discount is the plan's for the service's category. The visit and its audit row are written together, on the
 * platform connection with every statement bound to the caller's clinic (the audit trail is not tenant-writable).
 */
export async function createVisit(db: Database, actor: Actor, input: CreateVisitRequest, now: Date): Promise<Visit> {
  const id = await db.transaction(async (tx) => {
    const card = await findClinicCard(tx, actor.clinicId, input.cardId);
    if (!card || card.revokedAt !== null) throw new AppError('NOT_FOUND', messages.cards.cardNotFound);
    if (cardBenefitsState(card, card.graceDays, now) !== 'active') throw new AppError('CONFLICT', messages.cards.visitCardInactive);
    const service = await chosenServiceOf(tx, actor, input);
    const discountPercent = discountPercentOf(card, service.category);
    const amounts = visitAmountsOf(service.priceCents, discountPercent);
    const [visit] = await tx
      .insert(visits)
      .values({
        clinicId: actor.clinicId,
        cardId: card.id,
        subscriptionId: card.subscriptionId,
        patientUserId: card.holderUserId,
        dependentId: card.dependentId,
        serviceId: service.serviceId,
        serviceName: service.name,
        category: service.category,
        originalCents: service.priceCents,
        discountPercent,
        ...amounts,
        status: input.status,
        performedAt: now,
        createdBy: actor.userId,
      })
      .returning({ id: visits.id });
    if (!visit) throw new Error('visit not inserted');
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'visit.created',
      entity: 'visit',
      entityId: visit.id,
      clinicId: actor.clinicId,
      details: { cardId: card.id, serviceId: service.serviceId, category: service.category, originalCents: service.priceCents, discountPercent, ...amounts },
    });
    return visit.id;
  });
  const visit = await findClinicVisit(db, actor, id);
  if (!visit) throw new AppError('NOT_FOUND');
  return visit;
}

/**
 * Calls off a visit recorded by mistake (or not given): it stays in the list, marked, and no longer counts as a
 * discount received (the 7-day withdrawal keeps back only the discounts of visits that happened). Audited.
 */
export async function cancelVisit(db: Database, actor: Actor, visitId: string, now: Date): Promise<Visit> {
  await db.transaction(async (tx) => {
    const [visit] = await tx.select({ id: visits.id, canceledAt: visits.canceledAt }).from(visits).where(and(eq(visits.id, visitId), eq(visits.clinicId, actor.clinicId))).for('update').limit(1);
    if (!visit) throw new AppError('NOT_FOUND');
    if (visit.canceledAt !== null) throw new AppError('CONFLICT', messages.cardScreens.visitAlreadyCanceled);
    await tx.update(visits).set({ canceledAt: now, updatedAt: now }).where(and(eq(visits.id, visitId), isNull(visits.canceledAt)));
    await recordAudit(tx, { actorUserId: actor.userId, action: 'visit.canceled', entity: 'visit', entityId: visitId, clinicId: actor.clinicId, details: {} });
  });
  const visit = await findClinicVisit(db, actor, visitId);
  if (!visit) throw new AppError('NOT_FOUND');
  return visit;
}
