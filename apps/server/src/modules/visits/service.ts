import { categoryDiscountOf, discountedAmountsOf, type ServiceCategory } from '@carteirinha/shared/contracts/services';
import { BOOKING_MAX_DAYS, canMoveVisit, VISIT_STATUS_LABELS, type CreateVisitInput, type Visit, type VisitStatusChange } from '@carteirinha/shared/contracts/visits';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { visits } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import { cardBenefitsState, clinicCardFacts, type CardFacts } from '../cards/card-benefits.ts';
import { serviceForVisit } from '../services/service.ts';
import { saoPauloDay } from '../../lib/sao-paulo-time.ts';
import { enqueueFollowUps, PATIENT_NOTICE_QUEUE, type FollowUpQueue } from '../subscriptions/follow-ups.ts';
import { findClinicVisit, latestClinicVisits, lockClinicVisit, setVisitStatus } from './repository.ts';

type Actor = { userId: string; clinicId: string };

/** The card's use, told to its holder (issue 29): by push, or e-mail when notifications are off. */
type VisitNoticeFacts = {
  visitId: string;
  holderUserId: string;
  person: string;
  planName: string;
  serviceName: string;
  performedAt: Date;
  originalCents: number;
  discountPercent: number;
  finalCents: number;
};

/**
 * Tells the holder a visit was registered with their card or a dependent's, once per visit (its key), in the
 * transaction that registered it: a visit booked ahead is told when it happens, not when it is booked.
 */
async function noticeVisitRegistered(tx: Database, jobs: FollowUpQueue, facts: VisitNoticeFacts): Promise<void> {
  const notice = {
    kind: 'visitRegistered' as const,
    userId: facts.holderUserId,
    planName: facts.planName,
    amountCents: facts.finalCents,
    visitId: facts.visitId,
    person: facts.person,
    serviceName: facts.serviceName,
    performedAt: facts.performedAt,
    originalCents: facts.originalCents,
    discountPercent: facts.discountPercent,
  };
  await enqueueFollowUps(jobs, tx, [{ queue: PATIENT_NOTICE_QUEUE, notice, key: `visitRegistered:${facts.visitId}` }]);
}

const v = messages.visitsScreen;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The plan's discounts of the card, as the contracts name them. */
function planDiscountsOf(card: Pick<CardFacts, 'discountConsultas' | 'discountExames' | 'discountProcedimentos'>) {
  return { consultas: card.discountConsultas, exames: card.discountExames, procedimentos: card.discountProcedimentos };
}

/** The plan's discount for a category of service (DESIGN.md §2: consultas / exames / procedimentos). */
export function discountPercentOf(card: Pick<CardFacts, 'discountConsultas' | 'discountExames' | 'discountProcedimentos'>, category: ServiceCategory): number {
  return categoryDiscountOf(planDiscountsOf(card), category);
}

/** The visit's amounts: the discount rounded to the cent (half up), the final value what is left. */
export const visitAmountsOf = discountedAmountsOf;

type ChosenService = { serviceId: string | null; name: string; category: ServiceCategory; priceCents: number; ownDiscountPercent: number | null };

async function chosenServiceOf(db: Database, actor: Actor, input: CreateVisitInput): Promise<ChosenService> {
  if (input.serviceId) {
    const service = await serviceForVisit(db, actor, input.serviceId);
    return { serviceId: service.id, name: service.name, category: service.category, priceCents: service.priceCents, ownDiscountPercent: service.discountPercent };
  }
  if (!input.serviceName || !input.category || input.priceCents === undefined) throw new AppError('VALIDATION', messages.cards.visitServiceRequired);
  return { serviceId: null, name: input.serviceName, category: input.category, priceCents: input.priceCents, ownDiscountPercent: null };
}

/** When the visit happens and how it starts: now as typed, or booked ahead as 'aguardando' (issue 25). */
function scheduleOf(input: CreateVisitInput, now: Date): { performedAt: Date; bookedAt: Date | null; status: Visit['status'] } {
  if (input.status === 'cancelado') throw new AppError('VALIDATION', messages.validation.invalidRequest);
  if (!input.scheduledFor) return { performedAt: now, bookedAt: null, status: input.status };
  const performedAt = new Date(input.scheduledFor);
  if (performedAt.getTime() <= now.getTime()) throw new AppError('VALIDATION', v.bookingInPast);
  if (performedAt.getTime() > now.getTime() + BOOKING_MAX_DAYS * DAY_MS) throw new AppError('VALIDATION', v.bookingTooFar);
  return { performedAt, bookedAt: now, status: 'aguardando' };
}

async function activeCardOf(tx: Database, actor: Actor, cardId: string, now: Date, inactiveMessage: string): Promise<CardFacts> {
  const card = await clinicCardFacts(tx, actor.clinicId, cardId);
  if (!card || card.revokedAt !== null) throw new AppError('NOT_FOUND', messages.cards.cardNotFound);
  if (cardBenefitsState(card, card.graceDays, now) !== 'active') throw new AppError('CONFLICT', inactiveMessage);
  return card;
}

/**
 * 'Registrar Atendimento': the card must validate now for this clinic (the same rule as the validation); the discount
 * is the service's own where the clinic set one, else the plan's for the service's category. A visit booked ahead
 * waits as 'aguardando' at its date and time. The visit and its audit row are written together, on the platform
 * connection with every statement bound to the caller's clinic (the audit trail is not tenant-writable).
 */
export async function createVisit(db: Database, jobs: FollowUpQueue, actor: Actor, input: CreateVisitInput, now: Date): Promise<Visit> {
  const schedule = scheduleOf(input, now);
  const id = await db.transaction(async (tx) => {
    const card = await activeCardOf(tx, actor, input.cardId, now, messages.cards.visitCardInactive);
    const service = await chosenServiceOf(tx, actor, input);
    const discountPercent = service.ownDiscountPercent ?? discountPercentOf(card, service.category);
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
        ...schedule,
        professional: input.professional || null,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: visits.id });
    if (!visit) throw new Error('visit not inserted');
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: schedule.bookedAt ? 'visit.booked' : 'visit.created',
      entity: 'visit',
      entityId: visit.id,
      clinicId: actor.clinicId,
      details: { cardId: card.id, serviceId: service.serviceId, category: service.category, originalCents: service.priceCents, discountPercent, ...amounts, performedAt: schedule.performedAt.toISOString() },
    });
    if (!schedule.bookedAt) {
      await noticeVisitRegistered(tx, jobs, {
        visitId: visit.id,
        holderUserId: card.holderUserId,
        person: card.dependentName ?? card.holderName,
        planName: card.planName,
        serviceName: service.name,
        performedAt: schedule.performedAt,
        originalCents: service.priceCents,
        discountPercent,
        finalCents: amounts.finalCents,
      });
    }
    return visit.id;
  });
  const visit = await findClinicVisit(db, actor, id);
  if (!visit) throw new AppError('NOT_FOUND');
  return visit;
}

/**
 * A visit moves aguardando → em andamento → concluído, or is cancelled with a reason before it is concluded. A visit
 * that starts (or ends) needs the card valid at that moment, as at the desk; one booked for later that happens early
 * takes the time it really happened, so today's figures count it today.
 */
export async function changeVisitStatus(db: Database, jobs: FollowUpQueue, actor: Actor, visitId: string, change: VisitStatusChange, now: Date): Promise<Visit> {
  await db.transaction(async (tx) => {
    const visit = await lockClinicVisit(tx, actor, visitId);
    if (!visit) throw new AppError('NOT_FOUND', v.notFound);
    if (!canMoveVisit(visit.status, change.status)) {
      throw new AppError('CONFLICT', formatMessage(v.transitionRefused, { from: VISIT_STATUS_LABELS[visit.status], to: VISIT_STATUS_LABELS[change.status] }));
    }
    const cancelled = change.status === 'cancelado';
    const card = cancelled ? null : await activeCardOf(tx, actor, visit.cardId, now, v.cardInactiveNow);
    const performedAt = !cancelled && visit.performedAt.getTime() > now.getTime() ? now : visit.performedAt;
    const cancelReason = cancelled ? (change.reason ?? null) : null;
    await setVisitStatus(tx, actor, visitId, { status: change.status, cancelReason, performedAt, changedBy: actor.userId, at: now });
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'visit.status_changed',
      entity: 'visit',
      entityId: visitId,
      clinicId: actor.clinicId,
      details: { from: visit.status, to: change.status, reason: cancelReason },
    });
    // A visit booked ahead is registered when it happens: its holder is told then.
    if (card && visit.status === 'aguardando') {
      await noticeVisitRegistered(tx, jobs, {
        visitId,
        holderUserId: card.holderUserId,
        person: card.dependentName ?? card.holderName,
        planName: card.planName,
        serviceName: visit.serviceName,
        performedAt,
        originalCents: visit.originalCents,
        discountPercent: visit.discountPercent,
        finalCents: visit.finalCents,
      });
    }
  });
  const visit = await findClinicVisit(db, actor, visitId);
  if (!visit) throw new AppError('NOT_FOUND', v.notFound);
  return visit;
}

/** The clinic's latest visits up to today, newest first (the Dashboard's 'Atendimentos recentes'; bookings of later days wait). */
export async function recentClinicVisits(db: Database, scope: { clinicId: string }, limit: number, now: Date): Promise<Visit[]> {
  return latestClinicVisits(db, scope, { to: saoPauloDay(now) }, limit);
}

/** A member's latest visits (theirs and their dependents'), newest first: the Pacientes detail. */
export async function memberVisits(db: Database, scope: { clinicId: string }, patientUserId: string, limit: number): Promise<Visit[]> {
  return latestClinicVisits(db, scope, { patientUserId }, limit);
}
