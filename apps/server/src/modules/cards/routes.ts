import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cardTokenSchema, patientCardListSchema, validateCardRequestSchema, validateCardResponseSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireTenant, type TenantContext } from '../../plugins/access-control.ts';
import { cardBenefitsState, inactiveReasonOf } from './card-benefits.ts';
import { CARD_TOKEN_PERIOD_SECONDS, cardTokenAt } from './card-token.ts';
import { renderCardPng } from './image.ts';
import { findClinicBrand, findPatientCard, listPatientCards, prepareCardLookups, type CardFacts } from './repository.ts';
import { validateCard } from './validation.ts';

export type CardRouteOptions = {
  db: Database;
  box: SecretBox;
  now: () => Date;
  /** The clinic's site address (printed on the card image). */
  siteUrlOf: (clinic: { slug: string; domain: string | null }) => string;
  /** Validation attempts one clinic user may make per minute (CARD_VALIDATIONS_PER_MINUTE). */
  validationsPerMinute: number;
};

const errors = errorResponses(400, 401, 403, 404, 409);
const validationErrors = errorResponses(400, 401, 403, 413, 415, 429);

/** Whether the card validates now, and if not, why (in pt-BR): the subscription's benefits, the card, the clinic. */
function standingOf(card: CardFacts, tenant: TenantContext, now: Date): { active: boolean; reason: string | null } {
  if (tenant.clinicStanding !== null && tenant.clinicStanding !== 'open') return { active: false, reason: messages.cards.inactiveReasonClinicClosed };
  if (card.revokedAt !== null) return { active: false, reason: messages.cards.inactiveReasonRevoked };
  const reason = inactiveReasonOf(cardBenefitsState(card, card.graceDays, now), card.benefitsStartAt);
  return { active: reason === null, reason };
}

function toPatientCard(card: CardFacts, tenant: TenantContext, now: Date): PatientCard {
  const standing = standingOf(card, tenant, now);
  return {
    id: card.id,
    number: card.number,
    holderName: card.holderName,
    personName: card.dependentId ? (card.dependentName ?? card.holderName) : card.holderName,
    photoUrl: card.dependentId ? null : card.holderPhotoUrl,
    isDependent: card.dependentId !== null,
    dependentId: card.dependentId,
    planName: card.planName,
    subscriptionStatus: card.status,
    validUntil: card.expiresAt?.toISOString() ?? null,
    active: standing.active,
    inactiveReason: standing.reason,
    discounts: { consultas: card.discountConsultas, exames: card.discountExames, procedimentos: card.discountProcedimentos },
    maxMembers: card.maxMembers,
  };
}

export const cardRoutes: FastifyPluginAsyncZod<CardRouteOptions> = async (app, { db, box, now, validationsPerMinute, siteUrlOf }) => {
  const lookups = prepareCardLookups(db);

  async function ownCard(request: FastifyRequest, id: string): Promise<{ tenant: TenantContext; card: CardFacts }> {
    const tenant = requireTenant(request);
    const card = await findPatientCard(db, tenant, id);
    if (!card) throw new AppError('NOT_FOUND', messages.cards.cardNotFound);
    return { tenant, card };
  }

  app.get(
    '/api/patient/cards',
    {
      // A patient's own record (kept while the clinic is closed, ADR 010): the card shows greyed with the reason.
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Os cartões do paciente (titular e dependentes)', response: { 200: patientCardListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const at = now();
      return { items: (await listPatientCards(db, tenant)).map((card) => toPatientCard(card, tenant, at)) };
    },
  );

  app.get(
    '/api/patient/cards/:id/token',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'O token atual do QR Code do cartão (muda a cada 30 s)',
        params: idParamsSchema,
        response: { 200: cardTokenSchema, ...errors },
      },
    },
    async (request) => {
      const { tenant, card } = await ownCard(request, request.params.id);
      const at = now();
      const standing = standingOf(card, tenant, at);
      if (!standing.active) throw new AppError('CONFLICT', standing.reason ?? messages.cards.noToken);
      const { token, refreshAt } = cardTokenAt({ number: card.number, secretHex: box.open(card.secretEncrypted) }, at);
      return { token, refreshAt: refreshAt.toISOString(), periodSeconds: CARD_TOKEN_PERIOD_SECONDS };
    },
  );

  app.get(
    '/api/patient/cards/:id/image',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'O cartão como imagem PNG (Baixar Cartão)', params: idParamsSchema },
    },
    async (request, reply) => {
      const { tenant, card } = await ownCard(request, request.params.id);
      const at = now();
      const standing = standingOf(card, tenant, at);
      const brand = await findClinicBrand(db, tenant.clinicId);
      const png = await renderCardPng({
        clinicName: brand?.name ?? '',
        primaryColor: brand?.primaryColor ?? null,
        personName: card.dependentId ? (card.dependentName ?? card.holderName) : card.holderName,
        isDependent: card.dependentId !== null,
        planName: card.planName,
        number: card.number,
        validUntil: card.expiresAt,
        active: standing.active,
        siteHost: brand ? new URL(siteUrlOf(brand)).host : '',
      });
      return reply
        .header('content-type', 'image/png')
        .header('content-disposition', `attachment; filename="cartao-${card.number.slice(-4)}.png"`)
        .send(png);
    },
  );

  app.post(
    '/api/clinic/card-validations',
    {
      // The per-user limit is counted in the database, in the statement that records the attempt (validateCard).
      config: { access: 'cards:validate' },
      schema: {
        tags: ['clínica'],
        summary: 'Valida um cartão pelo token do QR Code, pelo número ou pelo CPF do titular ou do dependente (responde sempre 200)',
        body: validateCardRequestSchema,
        response: { 200: validateCardResponseSchema, ...validationErrors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const answer = await validateCard({ db, lookups, box, perMinute: validationsPerMinute }, tenant, request.body, now());
      if (!answer) throw new AppError('RATE_LIMITED', messages.cards.validationRateLimited);
      return answer;
    },
  );
};
