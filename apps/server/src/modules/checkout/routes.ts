import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamsSchema } from '@carteirinha/shared/contracts/pagination';
import { paymentDocumentSchema, paymentListSchema } from '@carteirinha/shared/contracts/payments';
import { autoRenewalResponseSchema } from '@carteirinha/shared/contracts/auto-renewal';
import {
  autoRenewalRequestSchema,
  cancelSubscriptionResponseSchema,
  cancellationPreviewSchema,
  changePaymentMethodRequestSchema,
  changePaymentMethodResponseSchema,
  checkoutRequestSchema,
  contractTermsSchema,
  contractTermsUpdateSchema,
  createSubscriptionResponseSchema,
} from '@carteirinha/shared/contracts/subscriptions';
import { planChangeOverviewSchema, planChangeRequestSchema, planChangeResponseSchema } from '@carteirinha/shared/contracts/plan-changes';
import { errorResponses } from '@carteirinha/shared/errors';
import { withTenantScope } from '../../db/tenant-scope.ts';
import { AppError } from '../../lib/app-error.ts';
import { requireTenant } from '../../plugins/access-control.ts';
import type { CheckoutDeps } from './billing.ts';
import { setAutoRenewal } from './auto-renewal.ts';
import { cancelSubscription, previewCancellation } from './cancellation.ts';
import { changePaymentMethod } from './payment-method.ts';
import { cancelPlanChange, planChangeOverview, requestPlanChange } from './plan-change.ts';
import { toPayment } from './payment-view.ts';
import { findPaymentOfPatient, findPaymentParties, listPaymentsOfPatient } from './repository.ts';
import { checkout } from './service.ts';
import { publishTerms, requireCurrentTerms } from './terms.ts';

const readErrors = errorResponses(400, 401, 403, 404);
const writeErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 503);

export type CheckoutRoutesOptions = Omit<CheckoutDeps, 'log'>;

/** The patient's money routes (checkout, charges, method, cancellation) and the clinic's contract terms (issue 14). */
export const checkoutRoutes: FastifyPluginAsyncZod<CheckoutRoutesOptions> = async (app, options) => {
  const deps = (log: CheckoutDeps['log']): CheckoutDeps => ({ db: options.db, billing: options.billing, now: options.now, jobs: options.jobs, log });
  const { db } = options;

  app.get(
    '/api/patient/terms',
    {
      config: { access: 'patient:programme' },
      schema: { tags: ['paciente'], summary: 'Os termos de adesão vigentes da clínica do paciente', response: { 200: contractTermsSchema, ...readErrors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return withTenantScope(db, tenant.clinicId, (tx) => requireCurrentTerms(tx, tenant.clinicId));
    },
  );

  app.get(
    '/api/clinic/terms',
    {
      config: { access: 'clinic:manage' },
      schema: { tags: ['clínica'], summary: 'Os termos de adesão vigentes da clínica', response: { 200: contractTermsSchema, ...readErrors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return withTenantScope(db, tenant.clinicId, (tx) => requireCurrentTerms(tx, tenant.clinicId));
    },
  );

  app.put(
    '/api/clinic/terms',
    {
      config: { access: 'clinic:manage' },
      schema: {
        tags: ['clínica'],
        summary: 'Publica uma nova versão dos termos de adesão (deve dizer que o cartão "não é plano de saúde")',
        body: contractTermsUpdateSchema,
        response: { 200: contractTermsSchema, ...writeErrors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return publishTerms(db, tenant, request.body.body);
    },
  );

  app.post(
    '/api/patient/subscriptions',
    {
      // A retried checkout (a lost answer, a double tap) answers from its Idempotency-Key: one subscription, one charge.
      config: { access: 'patient:programme', idempotent: true },
      schema: {
        tags: ['paciente'],
        summary: 'Assina um plano: cria a assinatura e a primeira cobrança (Pix, boleto ou cartão)',
        body: checkoutRequestSchema,
        response: { 201: createSubscriptionResponseSchema, ...writeErrors },
      },
    },
    async (request, reply) => {
      const tenant = requireTenant(request);
      const created = await checkout(deps(request.log), tenant, request.body, request.ip);
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/api/patient/payments',
    {
      // The patient's own records: kept while the clinic is closed (ADR 010).
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'As cobranças do paciente, da mais recente à mais antiga', response: { 200: paymentListSchema, ...readErrors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const rows = await withTenantScope(db, tenant.clinicId, (tx) => listPaymentsOfPatient(tx, tenant));
      return { items: rows.map(toPayment) };
    },
  );

  app.get(
    '/api/patient/payments/:id',
    {
      config: { access: 'patient:self' },
      schema: { tags: ['paciente'], summary: 'Uma cobrança do paciente com quem recebe e quem paga (recibo, boleto)', params: idParamsSchema, response: { 200: paymentDocumentSchema, ...readErrors } },
    },
    async (request) => {
      const tenant = requireTenant(request);
      const row = await withTenantScope(db, tenant.clinicId, (tx) => findPaymentOfPatient(tx, tenant, request.params.id));
      // Profiles are the person's, not the clinic's: read outside the tenant scope, for the caller and its clinic only.
      const parties = row ? await findPaymentParties(db, tenant) : null;
      if (!row || !parties) throw new AppError('NOT_FOUND');
      return { ...toPayment(row), beneficiary: { name: parties.clinicName, cnpj: parties.cnpj }, payer: { name: parties.payerName, cpf: parties.cpf } };
    },
  );

  app.put(
    '/api/patient/subscription/payment-method',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Altera a forma de pagamento das próximas cobranças (e da cobrança em aberto)',
        body: changePaymentMethodRequestSchema,
        response: { 200: changePaymentMethodResponseSchema, ...writeErrors },
      },
    },
    async (request) => {
      const tenant = requireTenant(request);
      return changePaymentMethod(deps(request.log), tenant, request.body, request.ip);
    },
  );

  app.get(
    '/api/patient/subscription/cancellation',
    {
      // Cancelling is the patient's right whatever the clinic's standing: 'patient:self' survives a closed clinic.
      config: { access: 'patient:self' },
      schema: {
        tags: ['paciente'],
        summary: 'O que acontece ao cancelar agora (arrependimento em 7 dias, CDC art. 49)',
        response: { 200: cancellationPreviewSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => previewCancellation(deps(request.log), requireTenant(request)),
  );

  app.post(
    '/api/patient/subscription/cancel',
    {
      config: { access: 'patient:self', idempotent: true },
      schema: { tags: ['paciente'], summary: 'Cancela a assinatura do paciente', response: { 200: cancelSubscriptionResponseSchema, ...writeErrors } },
    },
    async (request) => cancelSubscription(deps(request.log), requireTenant(request)),
  );

  app.put(
    '/api/patient/subscription/auto-renewal',
    {
      // Renewing is the programme's, which stops with the clinic; stopping stays open through 'Cancelar assinatura'.
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Liga ou desliga a renovação automática (desligada, o plano termina na data paga)',
        body: autoRenewalRequestSchema,
        response: { 200: autoRenewalResponseSchema, ...writeErrors },
      },
    },
    async (request) => setAutoRenewal(deps(request.log), requireTenant(request), request.body, request.ip),
  );

  app.get(
    '/api/patient/plan-change',
    {
      config: { access: 'patient:programme' },
      schema: {
        tags: ['paciente'],
        summary: 'Os planos para os quais o paciente pode trocar, com o que cada troca custa, e a troca já pedida',
        response: { 200: planChangeOverviewSchema, ...readErrors },
      },
    },
    async (request) => planChangeOverview(deps(request.log), requireTenant(request)),
  );

  app.post(
    '/api/patient/plan-change',
    {
      // A retried request answers from its Idempotency-Key: one change, one charge for the difference.
      config: { access: 'patient:programme', idempotent: true },
      schema: {
        tags: ['paciente'],
        summary: 'Troca de plano: upgrade com a diferença proporcional cobrada agora; downgrade na renovação',
        body: planChangeRequestSchema,
        response: { 200: planChangeResponseSchema, ...writeErrors },
      },
    },
    async (request) => requestPlanChange(deps(request.log), requireTenant(request), request.body, request.ip),
  );

  app.delete(
    '/api/patient/plan-change',
    {
      config: { access: 'patient:programme' },
      schema: { tags: ['paciente'], summary: 'Desiste da troca de plano pendente', response: { 204: z.null(), ...writeErrors } },
    },
    async (request, reply) => {
      await cancelPlanChange(deps(request.log), requireTenant(request));
      return reply.status(204).send(null);
    },
  );
};
