import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { cardTokenSchema, patientCardListSchema, validateCardRequestSchema, validateCardResponseSchema, type PatientCard } from '@carteirinha/shared/contracts/cards';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import {
  cardDeviceCheckInSchema,
  cardDeviceListSchema,
  enrolCardDeviceRequestSchema,
  enrolCardDeviceResponseSchema,
  type CardDevice,
} from '@carteirinha/shared/contracts/card-devices';
import { CARD_DEVICES_MAX, offlineCodesUntil } from '@carteirinha/shared/device-code';
import { errorResponses } from '@carteirinha/shared/errors';
import { messages } from '@carteirinha/shared/messages';
import type { Database } from '../../db/client.ts';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { recordAudit } from '../../lib/audit.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { requireTenant, type TenantContext } from '../../plugins/access-control.ts';
import { cardBenefitsState, inactiveReasonOf } from './card-benefits.ts';
import { CARD_TOKEN_PERIOD_SECONDS, cardTokenAt } from './card-token.ts';
import { renderCardPng } from './image.ts';
import { newDeviceSecret } from './device-code.ts';
import {
  confirmCardDeviceRow,
  enrolCardDeviceRow,
  findClinicBrand,
  findPatientCard,
  listCardDevices,
  listPatientCards,
  prepareCardLookups,
  prepareDeviceLookup,
  prepareValidationRecorder,
  revokeCardDeviceRow,
  type CardDeviceRow,
  type CardFacts,
} from './repository.ts';
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

function toCardDevice(row: CardDeviceRow): CardDevice {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export const cardRoutes: FastifyPluginAsyncZod<CardRouteOptions> = async (app, { db, box, now, validationsPerMinute, siteUrlOf }) => {
  const lookups = prepareCardLookups(db);
  const deviceLookup = prepareDeviceLookup(db);
  const recordAttempt = prepareValidationRecorder(db);

  /** What an enrolled device may show offline: the patient's cards as the server sees them now, and for how long. */
  async function offlineStandingOf(tenant: TenantContext, confirmedAt: Date) {
    const cards = (await listPatientCards(db, tenant)).map((card) => toPatientCard(card, tenant, confirmedAt));
    return { confirmedAt: confirmedAt.toISOString(), offlineCodesUntil: offlineCodesUntil(confirmedAt).toISOString(), cards };
  }

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
      const answer = await validateCard({ db, lookups, deviceLookup, recordAttempt, box, perMinute: validationsPerMinute }, tenant, request.body, now());
      if (!answer) throw new AppError('RATE_LIMITED', messages.cards.validationRateLimited);
      return answer;
    },
  );

  app.get(
    '/api/patient/card-devices',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Os aparelhos com o cartão offline (no máximo 3)', response: { 200: cardDeviceListSchema, ...errors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const rows = await withTenantScope(db, tenant.clinicId, (tx) => listCardDevices(tx, tenant));
      return { items: rows.map(toCardDevice), max: CARD_DEVICES_MAX };
    },
  );

  app.post(
    '/api/patient/card-devices',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Cadastra este aparelho para mostrar o cartão sem internet (o segredo vem só nesta resposta)',
        body: enrolCardDeviceRequestSchema,
        response: { 201: enrolCardDeviceResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const at = now();
      const secret = newDeviceSecret();
      // A platform transaction (the audit trail is not the tenant role's to write); every statement names the clinic.
      const device = await db.transaction(async (tx) => {
        const enrolled = await enrolCardDeviceRow(tx, tenant, { name: request.body.name, secretEncrypted: box.seal(secret.toString('hex')), now: at, max: CARD_DEVICES_MAX });
        if (enrolled) {
          await recordAudit(tx, { actorUserId: tenant.userId, action: 'card_device.enrolled', entity: 'card_device', entityId: enrolled.id, clinicId: tenant.clinicId, details: { name: enrolled.name } });
        }
        return enrolled;
      });
      if (!device) throw new AppError('CONFLICT', messages.cardDevices.limitReached);
      request.log.info({ userId: tenant.userId, clinicId: tenant.clinicId, deviceId: device.id }, 'card_device.enrolled');
      return reply.status(201).send({ ...(await offlineStandingOf(tenant, at)), device: toCardDevice(device), slot: device.slot, secret: secret.toString('base64url') });
    },
  );

  app.post(
    '/api/patient/card-devices/:id/check-in',
    {
      // The device learns a closed clinic's or a lapsed card's standing too, so it stops showing codes.
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'O aparelho está online: confirma os cartões que ele pode mostrar sem internet pelas próximas 72 h',
        params: idParamsSchema,
        response: { 200: cardDeviceCheckInSchema, ...errors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const at = now();
      const device = await withTenantScope(db, tenant.clinicId, (tx) => confirmCardDeviceRow(tx, tenant, request.params.id, at));
      if (!device) throw new AppError('NOT_FOUND', messages.cardDevices.notFound);
      return offlineStandingOf(tenant, at);
    },
  );

  app.delete(
    '/api/patient/card-devices/:id',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Remove um aparelho: os códigos dele deixam de valer', params: idParamsSchema, response: { 204: z.null(), ...errors } },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const revoked = await db.transaction(async (tx) => {
        const done = await revokeCardDeviceRow(tx, tenant, request.params.id, now());
        if (done) await recordAudit(tx, { actorUserId: tenant.userId, action: 'card_device.revoked', entity: 'card_device', entityId: request.params.id, clinicId: tenant.clinicId });
        return done;
      });
      if (!revoked) throw new AppError('NOT_FOUND', messages.cardDevices.notFound);
      request.log.info({ userId: tenant.userId, clinicId: tenant.clinicId, deviceId: request.params.id }, 'card_device.revoked');
      return reply.status(204).send(null);
    },
  );
};
