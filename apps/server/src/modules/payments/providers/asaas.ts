import { z } from 'zod';
import { formatMessage, messages } from '@carteirinha/shared/messages';
import type { BillingCycle } from '@carteirinha/shared/contracts/subscription-plans';
import type { CreditCardInput } from '@carteirinha/shared/contracts/subscriptions';
import type { PaymentMethod } from '@carteirinha/shared/contracts/payments';
import { AppError } from '../../../lib/app-error.ts';
import { cardSummaryOf } from './card-check.ts';
import { centsToReais, reaisToCents } from './money.ts';
import type { CreateProviderSubscriptionInput, MerchantAccount, PaymentProvider, ProviderCharge, ProviderCustomerInput } from './provider.ts';

const m = messages.paymentProviders;

/** The little of a logger the client uses: what failed, never a key, a body or a card. */
export type AsaasLog = { warn: (details: Record<string, unknown>, message: string) => void };

export type AsaasProviderOptions = {
  /** ASAAS_BASE_URL, e.g. https://api-sandbox.asaas.com/v3 (no trailing slash). */
  baseUrl: string;
  /** ASAAS_API_KEY: the platform's key, for a clinic that has not connected its own subaccount. */
  platformApiKey?: string;
  /** ASAAS_PLATFORM_WALLET_ID: where the platform's fee is split to. */
  platformWalletId?: string;
  /** Per request; the payer waits for checkout, so it is short. */
  timeoutMs?: number;
  /** Asaas requires a User-Agent from accounts created after 13/06/2024. */
  userAgent?: string;
  fetch?: typeof fetch;
  log?: AsaasLog;
};

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_USER_AGENT = 'Carteirinha/1.0 (+https://github.com/carteirinha)';
/** Asaas's largest page. */
const PAGE_SIZE = 100;
/** A bound on one listing: 50 pages of 100 charges a day is far beyond a clinic's volume. */
const MAX_PAGES = 50;

const BILLING_TYPE_OF: Record<PaymentMethod, 'PIX' | 'BOLETO' | 'CREDIT_CARD'> = { pix: 'PIX', boleto: 'BOLETO', credit_card: 'CREDIT_CARD' };
const CYCLE_OF: Record<BillingCycle, 'MONTHLY' | 'YEARLY'> = { monthly: 'MONTHLY', yearly: 'YEARLY' };

function methodOf(billingType: string): PaymentMethod {
  switch (billingType) {
    case 'PIX':
      return 'pix';
    case 'CREDIT_CARD':
    case 'DEBIT_CARD':
      return 'credit_card';
    // BOLETO, and UNDEFINED (the payer chooses on the invoice page, which offers boleto and Pix).
    default:
      return 'boleto';
  }
}

// Asaas's payloads, read tolerantly: unknown fields are dropped, new statuses pass as strings.
const listEnvelope = <T extends z.ZodType>(item: T) => z.object({ hasMore: z.boolean(), data: z.array(item) });
const customerSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  email: z.string().nullish(),
  cpfCnpj: z.string().nullish(),
  mobilePhone: z.string().nullish(),
  phone: z.string().nullish(),
  deleted: z.boolean().optional(),
});
const subscriptionSchema = z.object({ id: z.string(), customer: z.string(), value: z.number(), deleted: z.boolean().optional() });
const paymentSchema = z.object({
  id: z.string(),
  subscription: z.string().nullish(),
  status: z.string(),
  billingType: z.string(),
  value: z.number(),
  dueDate: z.string(),
  paymentDate: z.string().nullish(),
  clientPaymentDate: z.string().nullish(),
  confirmedDate: z.string().nullish(),
  bankSlipUrl: z.string().nullish(),
  invoiceUrl: z.string().nullish(),
  externalReference: z.string().nullish(),
  deleted: z.boolean().optional(),
  creditCard: z.object({ creditCardNumber: z.string().nullish(), creditCardBrand: z.string().nullish() }).nullish(),
});
type AsaasPayment = z.infer<typeof paymentSchema>;
const pixQrCodeSchema = z.object({ encodedImage: z.string(), payload: z.string() });
const identificationFieldSchema = z.object({ identificationField: z.string() });
const errorsSchema = z.object({ errors: z.array(z.object({ code: z.string().nullish(), description: z.string() })).min(1) });

/** Statuses in which the payer has paid (a card's CONFIRMED included): `paidAt` is set for them. */
const PAID_STATUSES = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);
/** Statuses in which the payer still needs the QR or the boleto line. */
const OPEN_STATUSES = new Set(['PENDING', 'OVERDUE']);

/** Asaas gives days (yyyy-MM-dd, Brasília time); midday there keeps the day the same in any time zone's display. */
function instantOfDay(dayText: string | null | undefined): Date | null {
  if (!dayText || !/^\d{4}-\d{2}-\d{2}/.test(dayText)) return null;
  return new Date(`${dayText.slice(0, 10)}T12:00:00-03:00`);
}

/** A day as Asaas filters by it: the date in Brasília. */
function brasiliaDay(instant: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

type Holder = NonNullable<CreateProviderSubscriptionInput['holder']>;

function holderOf(customer: z.infer<typeof customerSchema>): Holder {
  return { name: customer.name ?? '', email: customer.email ?? '', cpfCnpj: customer.cpfCnpj ?? '', phone: customer.mobilePhone ?? customer.phone ?? undefined };
}

function chargeOf(payment: AsaasPayment): ProviderCharge {
  const paid = PAID_STATUSES.has(payment.status);
  return {
    id: payment.id,
    subscriptionId: payment.subscription ?? null,
    // A deleted charge keeps its last status at Asaas; reconciliation needs to know it is gone.
    status: payment.deleted ? 'DELETED' : payment.status,
    method: methodOf(payment.billingType),
    amountCents: reaisToCents(payment.value),
    dueDate: payment.dueDate.slice(0, 10),
    paidAt: paid ? instantOfDay(payment.clientPaymentDate ?? payment.paymentDate ?? payment.confirmedDate) : null,
    pixPayload: null,
    pixQrCodePng: null,
    boletoUrl: payment.bankSlipUrl ?? null,
    boletoDigitableLine: null,
    invoiceUrl: payment.invoiceUrl ?? null,
    cardSummary: cardSummaryOf(payment.creditCard?.creditCardBrand, payment.creditCard?.creditCardNumber),
    externalReference: payment.externalReference ?? null,
  };
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Call = {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  /** A key being checked (not yet stored): Asaas refusing it (401/403) is the answer, not an outage. */
  refusedKey?: () => AppError;
};

/** GET /v3/wallets/ ("Recuperar WalletId"): a list whose item is the authenticated account's wallet. */
const walletsSchema = z.object({ data: z.array(z.object({ id: z.string().min(1) })) });

/** GET/POST/PUT /v3/webhooks: what a webhook answers (its id and address). */
const webhookSchema = z.object({ id: z.string().min(1), url: z.string() });

/** A clinic's own webhook at its Asaas account ("Create new Webhook via API"). */
export type AsaasWebhook = { url: string; authToken: string; email: string; events: readonly string[] };

/** The Asaas client plus what only Asaas has: checking a clinic's key before it is stored, and its webhook. */
export type AsaasProvider = PaymentProvider & {
  /**
   * Registers (or, when one with this URL exists, updates) the webhook of the account `apiKey` opens: Asaas then
   * posts that account's events there with `authToken` in `asaas-access-token`, in order (SEQUENTIALLY). Answers
   * the webhook's id. A refusal is a PAYMENT_REJECTED (422) and an unreachable Asaas a PAYMENT_PROVIDER_UNAVAILABLE
   * (503), both in pt-BR.
   */
  registerWebhook: (apiKey: string, webhook: AsaasWebhook) => Promise<string>;
  /**
   * The wallet of the account a key opens (GET /v3/wallets/), null when Asaas lists none. A refused key is a
   * PAYMENT_REJECTED (422) and an unreachable Asaas a PAYMENT_PROVIDER_UNAVAILABLE (503), both in pt-BR.
   */
  accountWalletId: (apiKey: string) => Promise<string | null>;
};

/**
 * The Asaas v3 client (docs.asaas.com; ../../../../../../shared/reference/asaas-and-pix.md §3). Each clinic is its
 * own merchant: calls run on the clinic's subaccount key, or the platform's when the clinic has none. Money crosses
 * as reais with two decimals and comes back as integer cents.
 *
 * Errors: a refusal (4xx with `errors[].description`, e.g. a declined card) becomes PAYMENT_REJECTED with Asaas's own
 * words in a pt-BR sentence; a refused key, a 5xx, a 429, a timeout or a network fault becomes
 * PAYMENT_PROVIDER_UNAVAILABLE (503), with nothing charged. The key and card data never reach the log.
 */
export function createAsaasProvider(options: AsaasProviderOptions): AsaasProvider {
  const fetchFn = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const userAgent = options.userAgent ?? DEFAULT_USER_AGENT;

  function keyOf(account: MerchantAccount): string {
    const key = account.apiKey ?? options.platformApiKey;
    if (!key) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', m.notConnected);
    return key;
  }

  function unavailable(call: Call, details: Record<string, unknown>): AppError {
    // The path names only ids; the query (a CPF) and the body (a card) stay out of the log.
    options.log?.warn({ provider: 'asaas', method: call.method, path: call.path, ...details }, 'payments.asaas.unavailable');
    return new AppError('PAYMENT_PROVIDER_UNAVAILABLE');
  }

  /** Sends one call; answers the parsed JSON, or null for a 404 when `notFoundIsNull`; throws AppError otherwise. */
  async function send(account: MerchantAccount, call: Call, notFoundIsNull = false): Promise<unknown> {
    const url = new URL(`${options.baseUrl}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { access_token: keyOf(account), 'User-Agent': userAgent, Accept: 'application/json' };
    // Asaas refuses a GET with a body (403): only writes carry one.
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchFn(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network';
      throw unavailable(call, { reason });
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return parseJson(text);
    if (response.status === 404 && notFoundIsNull) return null;
    if (call.refusedKey && (response.status === 401 || response.status === 403)) throw call.refusedKey();
    if (response.status === 401) {
      options.log?.warn({ provider: 'asaas', method: call.method, path: call.path, status: 401, clinicId: account.clinicId }, 'payments.asaas.key_refused');
      throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', m.asaasKeyRefused);
    }
    if (response.status >= 500 || response.status === 429) throw unavailable(call, { status: response.status });
    const refusal = errorsSchema.safeParse(parseJson(text));
    if (!refusal.success) throw new AppError('PAYMENT_REJECTED');
    const reason = refusal.data.errors.map((error) => error.description.trim()).join(' ');
    throw new AppError('PAYMENT_REJECTED', formatMessage(m.rejected, { reason }));
  }

  function parseJson(text: string): unknown {
    if (text === '') return null;
    try {
      return JSON.parse(text);
    } catch {
      return null;
    }
  }

  async function call<T extends z.ZodType>(account: MerchantAccount, request: Call, schema: T): Promise<z.infer<T>> {
    const parsed = schema.safeParse(await send(account, request));
    if (!parsed.success) throw unavailable(request, { reason: 'unexpected_answer' });
    return parsed.data;
  }

  async function callOrNull<T extends z.ZodType>(account: MerchantAccount, request: Call, schema: T): Promise<z.infer<T> | null> {
    const answer = await send(account, request, true);
    if (answer === null) return null;
    const parsed = schema.safeParse(answer);
    if (!parsed.success) throw unavailable(request, { reason: 'unexpected_answer' });
    return parsed.data;
  }

  /** Every item of a listing, page by page (`offset`/`limit`, until `hasMore` is false). */
  async function listAll<T extends z.ZodType>(account: MerchantAccount, path: string, query: Record<string, string>, item: T): Promise<z.infer<T>[]> {
    const items: z.infer<T>[] = [];
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer = await call(account, { method: 'GET', path, query: { ...query, offset: page * PAGE_SIZE, limit: PAGE_SIZE } }, listEnvelope(item));
      items.push(...answer.data);
      if (!answer.hasMore) break;
    }
    return items;
  }

  async function customerById(account: MerchantAccount, customerId: string) {
    return call(account, { method: 'GET', path: `/customers/${encodeURIComponent(customerId)}` }, customerSchema);
  }

  /** The card fields Asaas takes; the holder's CPF and e-mail come from the customer when checkout did not pass them. */
  async function cardFields(account: MerchantAccount, customerId: string, card: CreditCardInput, remoteIp: string, holder?: Holder) {
    const owner = holder ?? holderOf(await customerById(account, customerId));
    const year = card.expiryYear.length === 2 ? `20${card.expiryYear}` : card.expiryYear;
    return {
      creditCard: { holderName: card.holderName, number: card.number.replace(/\D/g, ''), expiryMonth: card.expiryMonth.padStart(2, '0'), expiryYear: year, ccv: card.ccv },
      creditCardHolderInfo: {
        name: owner.name || card.holderName,
        email: owner.email,
        cpfCnpj: owner.cpfCnpj,
        postalCode: card.postalCode.replace(/\D/g, ''),
        addressNumber: card.addressNumber,
        mobilePhone: owner.phone?.replace(/\D/g, '') || undefined,
      },
      remoteIp,
    };
  }

  async function findSubscriptionByReference(account: MerchantAccount, externalReference: string) {
    const answer = await call(account, { method: 'GET', path: '/subscriptions', query: { externalReference, limit: 10 } }, listEnvelope(subscriptionSchema));
    return answer.data.find((subscription) => !subscription.deleted) ?? null;
  }

  /** The subscription's charges, oldest due date first: the first is the one checkout shows. */
  async function paymentsOf(account: MerchantAccount, subscriptionId: string): Promise<[AsaasPayment, ...AsaasPayment[]]> {
    const path = `/subscriptions/${encodeURIComponent(subscriptionId)}/payments`;
    const payments = await call(account, { method: 'GET', path, query: { limit: 10 } }, listEnvelope(paymentSchema));
    const [first, ...later] = [...payments.data].filter((payment) => !payment.deleted).sort((a, b) => a.dueDate.localeCompare(b.dueDate));
    if (!first) throw unavailable({ method: 'GET', path }, { reason: 'no_first_charge' });
    return [first, ...later];
  }

  async function setPaymentValue(account: MerchantAccount, paymentId: string, cents: number): Promise<AsaasPayment> {
    return call(account, { method: 'PUT', path: `/payments/${encodeURIComponent(paymentId)}`, body: { value: centsToReais(cents) } }, paymentSchema);
  }

  /**
   * A card subscription is created at the first charge's total (the card is charged for it at once, nextDueDate =
   * today); then the subscription goes back to the plan's price, and a later charge Asaas already generated (it
   * makes them up to 40 days ahead) is set to it too. The first charge is never touched: it may still be processing.
   */
  async function settleCardCyclesAtPlanPrice(account: MerchantAccount, subscription: z.infer<typeof subscriptionSchema>, input: CreateProviderSubscriptionInput) {
    const firstTotalCents = input.amountCents + input.firstChargeExtraCents;
    if (reaisToCents(subscription.value) !== input.amountCents) {
      const path = `/subscriptions/${encodeURIComponent(subscription.id)}`;
      await call(account, { method: 'PUT', path, body: { value: centsToReais(input.amountCents), updatePendingPayments: false } }, subscriptionSchema);
    }
    const [, ...later] = await paymentsOf(account, subscription.id);
    for (const payment of later) {
      if (payment.status === 'PENDING' && reaisToCents(payment.value) === firstTotalCents) await setPaymentValue(account, payment.id, input.amountCents);
    }
  }

  /** The QR and copy-and-paste text for a Pix charge, the digitable line for a boleto (fetched after any change). */
  async function withPayerDetails(account: MerchantAccount, charge: ProviderCharge): Promise<ProviderCharge> {
    if (!OPEN_STATUSES.has(charge.status)) return charge;
    const path = `/payments/${encodeURIComponent(charge.id)}`;
    if (charge.method === 'pix') {
      const pix = await call(account, { method: 'GET', path: `${path}/pixQrCode` }, pixQrCodeSchema);
      return { ...charge, pixPayload: pix.payload, pixQrCodePng: pix.encodedImage };
    }
    if (charge.method === 'boleto') {
      const line = await call(account, { method: 'GET', path: `${path}/identificationField` }, identificationFieldSchema);
      return { ...charge, boletoDigitableLine: line.identificationField };
    }
    return charge;
  }

  return {
    name: 'asaas',

    async ensureCustomer(account, customer: ProviderCustomerInput) {
      const cpfCnpj = customer.cpfCnpj.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
      const found = await call(account, { method: 'GET', path: '/customers', query: { cpfCnpj, limit: 10 } }, listEnvelope(customerSchema));
      const existing = found.data.find((item) => !item.deleted);
      if (existing) return existing.id;
      const created = await call(
        account,
        {
          method: 'POST',
          path: '/customers',
          body: {
            name: customer.name,
            cpfCnpj,
            email: customer.email,
            mobilePhone: customer.phone?.replace(/\D/g, '') || undefined,
            externalReference: customer.externalReference,
            // The platform sends its own e-mails (issue 14); Asaas's notifications would cost the clinic fees.
            notificationDisabled: true,
          },
        },
        customerSchema,
      );
      return created.id;
    },

    async createSubscription(account, input) {
      const firstTotalCents = input.amountCents + input.firstChargeExtraCents;
      const isCard = input.method === 'credit_card';
      if (isCard && !input.creditCard) throw new AppError('VALIDATION', m.cardRequired);
      // A retried checkout (lost answer, double click past the Idempotency-Key) finds the subscription it made.
      let subscription = await findSubscriptionByReference(account, input.externalReference);
      if (!subscription) {
        // Split only from a clinic's own subaccount: the platform never splits to its own wallet.
        const split = options.platformWalletId && account.apiKey && input.platformFeePercent > 0 ? [{ walletId: options.platformWalletId, percentualValue: input.platformFeePercent }] : undefined;
        const card = isCard && input.creditCard ? await cardFields(account, input.customerId, input.creditCard, input.remoteIp, input.holder) : {};
        subscription = await call(
          account,
          {
            method: 'POST',
            path: '/subscriptions',
            body: {
              customer: input.customerId,
              billingType: BILLING_TYPE_OF[input.method],
              // A card is charged as the subscription is created: its first charge carries the adhesion fee from the start.
              value: centsToReais(isCard ? firstTotalCents : input.amountCents),
              nextDueDate: input.firstDueDate,
              cycle: CYCLE_OF[input.cycle],
              description: input.description,
              externalReference: input.externalReference,
              ...(split ? { splits: split } : {}),
              ...card,
            },
          },
          subscriptionSchema,
        );
      }
      if (input.firstChargeExtraCents > 0 && isCard) await settleCardCyclesAtPlanPrice(account, subscription, input);
      let [first] = await paymentsOf(account, subscription.id);
      // Pix and boleto: the adhesion fee joins the first charge, still open, before the payer sees it.
      if (input.firstChargeExtraCents > 0 && !isCard && reaisToCents(first.value) !== firstTotalCents) first = await setPaymentValue(account, first.id, firstTotalCents);
      return { id: subscription.id, firstCharge: await withPayerDetails(account, chargeOf(first)) };
    },

    async cancelSubscription(account, providerSubscriptionId) {
      // Already gone (a second click, or cancelled in Asaas's panel) is the state we want.
      await send(account, { method: 'DELETE', path: `/subscriptions/${encodeURIComponent(providerSubscriptionId)}` }, true);
    },

    async updateSubscriptionMethod(account, providerSubscriptionId, method, creditCard, remoteIp) {
      const path = `/subscriptions/${encodeURIComponent(providerSubscriptionId)}`;
      if (method === 'credit_card') {
        if (!creditCard) throw new AppError('VALIDATION', m.cardRequired);
        const subscription = await call(account, { method: 'GET', path }, subscriptionSchema);
        // Validates and stores the card without charging now; Asaas moves the pending charges to it.
        await call(account, { method: 'PUT', path: `${path}/creditCard`, body: await cardFields(account, subscription.customer, creditCard, remoteIp ?? '') }, subscriptionSchema);
      }
      await call(account, { method: 'PUT', path, body: { billingType: BILLING_TYPE_OF[method], updatePendingPayments: true } }, subscriptionSchema);
    },

    async refundCharge(account, providerChargeId, amountCents) {
      // Without `value` Asaas refunds the whole charge; with it, that much of it (a partial refund).
      const body = amountCents ? { value: centsToReais(amountCents) } : {};
      await call(account, { method: 'POST', path: `/payments/${encodeURIComponent(providerChargeId)}/refund`, body }, paymentSchema);
    },

    async updateSubscriptionAmount(account, providerSubscriptionId, amountCents) {
      const path = `/subscriptions/${encodeURIComponent(providerSubscriptionId)}`;
      await call(account, { method: 'PUT', path, body: { value: centsToReais(amountCents), updatePendingPayments: true } }, subscriptionSchema);
    },

    async createCharge(account, input) {
      const isCard = input.method === 'credit_card';
      if (isCard && !input.creditCard) throw new AppError('VALIDATION', m.cardRequired);
      // A retried call (a lost answer) finds the charge it made instead of making a second one.
      const found = await call(account, { method: 'GET', path: '/payments', query: { externalReference: input.externalReference, limit: 10 } }, listEnvelope(paymentSchema));
      let payment = found.data.find((candidate) => !candidate.deleted) ?? null;
      if (!payment) {
        const split = options.platformWalletId && account.apiKey && input.platformFeePercent > 0 ? [{ walletId: options.platformWalletId, percentualValue: input.platformFeePercent }] : undefined;
        const card = isCard && input.creditCard ? await cardFields(account, input.customerId, input.creditCard, input.remoteIp) : {};
        payment = await call(
          account,
          {
            method: 'POST',
            path: '/payments',
            body: {
              customer: input.customerId,
              billingType: BILLING_TYPE_OF[input.method],
              value: centsToReais(input.amountCents),
              dueDate: input.dueDate,
              description: input.description,
              externalReference: input.externalReference,
              ...(split ? { splits: split } : {}),
              ...card,
            },
          },
          paymentSchema,
        );
      }
      return withPayerDetails(account, chargeOf(payment));
    },

    async deleteCharge(account, providerChargeId) {
      // Already gone (deleted in Asaas's panel, or a second call) is the state we want.
      await send(account, { method: 'DELETE', path: `/payments/${encodeURIComponent(providerChargeId)}` }, true);
    },

    async getCharge(account, providerChargeId) {
      const payment = await callOrNull(account, { method: 'GET', path: `/payments/${encodeURIComponent(providerChargeId)}` }, paymentSchema);
      return payment ? withPayerDetails(account, chargeOf(payment)) : null;
    },

    async accountWalletId(apiKey) {
      const account: MerchantAccount = { clinicId: 'key-check', apiKey, merchantName: '', merchantCity: '' };
      const refusedKey = () => new AppError('PAYMENT_REJECTED', messages.billingSettings.asaasKeyRefused);
      try {
        const answer = await call(account, { method: 'GET', path: '/wallets/', refusedKey }, walletsSchema);
        return answer.data[0]?.id ?? null;
      } catch (error) {
        // The generic words ("nada foi cobrado") do not fit here: what failed is the check of the key.
        if (error instanceof AppError && error.code === 'PAYMENT_PROVIDER_UNAVAILABLE') throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', messages.billingSettings.asaasUnreachable);
        throw error;
      }
    },

    async registerWebhook(apiKey, webhook) {
      const account: MerchantAccount = { clinicId: 'webhook-registration', apiKey, merchantName: '', merchantCity: '' };
      const body = { name: 'Carteirinha', url: webhook.url, email: webhook.email, enabled: true, interrupted: false, authToken: webhook.authToken, sendType: 'SEQUENTIALLY', events: [...webhook.events] };
      try {
        const existing = (await listAll(account, '/webhooks', {}, webhookSchema)).find((item) => item.url === webhook.url);
        const saved = existing
          ? await call(account, { method: 'PUT', path: `/webhooks/${encodeURIComponent(existing.id)}`, body }, webhookSchema)
          : await call(account, { method: 'POST', path: '/webhooks', body }, webhookSchema);
        return saved.id;
      } catch (error) {
        if (error instanceof AppError && error.code === 'PAYMENT_REJECTED') {
          throw new AppError('PAYMENT_REJECTED', formatMessage(messages.billingSettings.webhookRefused, { reason: error.message }));
        }
        if (error instanceof AppError) throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', messages.billingSettings.webhookUnreachable);
        throw error;
      }
    },

    async listRecentCharges(account, since) {
      // Created since (a lost PAYMENT_CREATED) and paid since (a lost PAYMENT_RECEIVED of an older charge).
      const day = brasiliaDay(since);
      const created = await listAll(account, '/payments', { 'dateCreated[ge]': day }, paymentSchema);
      const paid = await listAll(account, '/payments', { 'paymentDate[ge]': day }, paymentSchema);
      const byId = new Map([...created, ...paid].map((payment) => [payment.id, chargeOf(payment)]));
      return [...byId.values()];
    },
  };
}
