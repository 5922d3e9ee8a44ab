/**
 * A stand-in for the Asaas v3 API on 127.0.0.1 (a random port), for tests: no test reaches the internet
 * (CONVENTIONS.md). It keeps customers, subscriptions and payments in memory, answers with the payload shapes of the
 * Asaas reference (customer, subscription, list envelope `{ object, hasMore, totalCount, limit, offset, data }`,
 * payment, pixQrCode, identificationField, refund, `{ errors: [{ code, description }] }`), and records every request.
 *
 * Usage:
 *   const asaas = await startAsaasDouble();            // or startAsaasDouble({ apiKey: '...', now: () => date })
 *   asaas.baseUrl                                       // 'http://127.0.0.1:<port>/v3' → ASAAS_BASE_URL
 *   asaas.apiKey                                        // the only key it accepts; any other answers 401
 *   asaas.walletId                                      // its account's wallet: GET /wallets/ lists it
 *   asaas.requests                                      // RecordedRequest[]: method, path, query, headers, body
 *   asaas.requestsTo('POST', '/subscriptions')          // the recorded requests of one route (path without /v3)
 *   asaas.customers / .subscriptions / .payments        // Map<id, object> of its state, as Asaas would return it
 *   asaas.webhooks                                      // Map<id, webhook>: POST/PUT /webhooks (url, authToken, events…)
 *   asaas.failNext({ status: 500 })                     // the next request answers 500 (a queue: call it N times)
 *   asaas.failNext({ status: 400, errors: [{ code: 'invalid_value', description: '...' }] })
 *   asaas.failNext({ delayMs: 2_000 })                  // the next request answers only after 2 s (timeouts)
 *   asaas.failNext({ ..., path: '/payments' })          // only a request whose path starts with it takes the fault
 *   asaas.settle(paymentId, 'RECEIVED')                 // the payer paid: status, paymentDate, clientPaymentDate
 *   asaas.addPayment(partial)                           // a charge made elsewhere (reconciliation tests)
 *   await asaas.close()
 *
 * Sandbox rules it imitates: a card number ending in 0002 is declined with 400 `invalid_creditCard`; the first card
 * charge is CONFIRMED on creation; a monthly subscription's second charge is generated at once (Asaas makes charges
 * 40 days ahead); a GET with a body answers 403 (Asaas refuses those); a wrong or missing `access_token` 401.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import QRCode from 'qrcode';

export type RecordedRequest = {
  method: string;
  /** Without the /v3 prefix, e.g. '/subscriptions/sub_abc/payments'. */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The raw body ('' when none). */
  body: string;
  /** The body parsed as JSON (undefined when none or not JSON). */
  json: unknown;
};

export type AsaasFault = { status?: number; errors?: { code: string; description: string }[]; delayMs?: number; path?: string };

type Json = Record<string, unknown>;

export type AsaasDouble = {
  baseUrl: string;
  apiKey: string;
  walletId: string;
  requests: RecordedRequest[];
  requestsTo: (method: string, path: string) => RecordedRequest[];
  customers: Map<string, Json>;
  subscriptions: Map<string, Json>;
  payments: Map<string, Json>;
  webhooks: Map<string, Json>;
  failNext: (fault: AsaasFault) => void;
  settle: (paymentId: string, status: 'RECEIVED' | 'CONFIRMED') => Json;
  addPayment: (payment: Json) => Json;
  close: () => Promise<void>;
};

/** A documented boleto line (the Asaas and brazilian-utils examples use this bank slip). */
const IDENTIFICATION_FIELD = '00190000090114971860168524522114675860000102656';
const BAR_CODE = '00191758600001026560000001149718606852452211';

const day = (date: Date) => date.toISOString().slice(0, 10);

function nextMonth(dueDate: string): string {
  const date = new Date(`${dueDate}T12:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + 1);
  return day(date);
}
const shortId = () => randomBytes(6).toString('hex');

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(items: Json[], query: URLSearchParams): Json {
  const offset = Number(query.get('offset') ?? 0);
  const limit = Number(query.get('limit') ?? 10);
  const page = items.slice(offset, offset + limit);
  return { object: 'list', hasMore: offset + page.length < items.length, totalCount: items.length, limit, offset, data: page };
}

function errorsBody(code: string, description: string): Json {
  return { errors: [{ code, description }] };
}

export async function startAsaasDouble(options: { apiKey?: string; walletId?: string; now?: () => Date } = {}): Promise<AsaasDouble> {
  const apiKey = options.apiKey ?? `$aact_double_${randomBytes(8).toString('hex')}`;
  const walletId = options.walletId ?? randomUUID();
  const now = options.now ?? (() => new Date());
  const requests: RecordedRequest[] = [];
  const faults: AsaasFault[] = [];
  const customers = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const payments = new Map<string, Json>();
  const webhooks = new Map<string, Json>();

  /** The first card charge is captured at creation (nextDueDate today); later ones wait for their due date. */
  function newPayment(subscription: Json, dueDate: string, first: boolean): Json {
    const id = `pay_${shortId()}`;
    const billingType = String(subscription.billingType);
    const capturedNow = first && billingType === 'CREDIT_CARD';
    const card = subscription.creditCardLast4
      ? { creditCardNumber: subscription.creditCardLast4, creditCardBrand: subscription.creditCardBrand, creditCardToken: randomUUID() }
      : null;
    const payment: Json = {
      object: 'payment',
      id,
      dateCreated: day(now()),
      customer: subscription.customer,
      subscription: subscription.id,
      installment: null,
      dueDate,
      originalDueDate: dueDate,
      value: subscription.value,
      netValue: Math.round(Number(subscription.value) * 0.97 * 100) / 100,
      description: subscription.description ?? null,
      externalReference: subscription.externalReference ?? null,
      billingType,
      status: capturedNow ? 'CONFIRMED' : 'PENDING',
      confirmedDate: capturedNow ? day(now()) : null,
      paymentDate: null,
      clientPaymentDate: capturedNow ? day(now()) : null,
      invoiceUrl: `https://sandbox.asaas.com/i/${id.slice(4)}`,
      bankSlipUrl: billingType === 'BOLETO' ? `https://sandbox.asaas.com/b/pdf/${id.slice(4)}` : null,
      transactionReceiptUrl: null,
      nossoNumero: billingType === 'BOLETO' ? '6453' : null,
      creditCard: card,
      deleted: false,
      split: subscription.splits ?? null,
    };
    payments.set(id, payment);
    return payment;
  }

  function createSubscription(body: Json): [number, Json] {
    const customer = typeof body.customer === 'string' ? customers.get(body.customer) : undefined;
    if (!customer) return [400, errorsBody('invalid_customer', 'Cliente inválido ou inexistente.')];
    if (typeof body.value !== 'number' || body.value <= 0) return [400, errorsBody('invalid_value', 'O valor da assinatura deve ser maior que zero.')];
    const card = isJson(body.creditCard) ? body.creditCard : undefined;
    let cardFields: Json = {};
    if (body.billingType === 'CREDIT_CARD') {
      const number = typeof card?.number === 'string' ? card.number : '';
      if (!body.creditCardHolderInfo || !body.remoteIp) return [400, errorsBody('invalid_creditCard', 'Informe os dados do titular do cartão.')];
      if (number.endsWith('0002')) {
        return [400, errorsBody('invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.')];
      }
      cardFields = { creditCardLast4: number.slice(-4), creditCardBrand: number.startsWith('4') ? 'VISA' : 'MASTERCARD' };
    }
    const id = `sub_${shortId()}`;
    const subscription: Json = {
      object: 'subscription',
      id,
      dateCreated: day(now()),
      customer: body.customer,
      billingType: body.billingType,
      cycle: body.cycle,
      value: body.value,
      nextDueDate: body.nextDueDate,
      description: body.description ?? null,
      status: 'ACTIVE',
      externalReference: body.externalReference ?? null,
      deleted: false,
      splits: body.splits ?? null,
      ...cardFields,
    };
    subscriptions.set(id, subscription);
    newPayment(subscription, String(body.nextDueDate), true);
    // Asaas generates each charge 40 days before its due date: a monthly subscription's second one exists at once.
    if (body.cycle === 'MONTHLY') newPayment(subscription, nextMonth(String(body.nextDueDate)), false);
    const { creditCardLast4: _last4, creditCardBrand: _brand, ...answer } = subscription;
    return [200, answer];
  }

  function updateSubscription(subscription: Json, body: Json): [number, Json] {
    for (const key of ['billingType', 'value', 'nextDueDate', 'cycle', 'description']) {
      if (body[key] !== undefined) subscription[key] = body[key];
    }
    if (body.updatePendingPayments === true) {
      for (const payment of payments.values()) {
        if (payment.subscription !== subscription.id || payment.status !== 'PENDING') continue;
        if (body.value !== undefined) payment.value = body.value;
        if (body.billingType !== undefined) payment.billingType = body.billingType;
      }
    }
    const { creditCardLast4: _last4, creditCardBrand: _brand, ...answer } = subscription;
    return [200, answer];
  }

  /** PUT /subscriptions/{id}/creditCard: validates and stores the card, no charge now. */
  function updateCard(subscription: Json, body: Json): [number, Json] {
    const card = isJson(body.creditCard) ? body.creditCard : undefined;
    const number = typeof card?.number === 'string' ? card.number : '';
    if (!body.creditCardHolderInfo || !body.remoteIp) return [400, errorsBody('invalid_creditCard', 'Informe os dados do titular do cartão.')];
    if (number.endsWith('0002')) return [400, errorsBody('invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.')];
    subscription.creditCardLast4 = number.slice(-4);
    const { creditCardLast4: _last4, creditCardBrand: _brand, ...answer } = subscription;
    return [200, answer];
  }

  async function pixQrCode(payment: Json): Promise<Json> {
    const payload = generatePixPayload({ url: `pix.asaas.com/qr/cobv/${payment.id}`, merchantName: 'Clinica Double', merchantCity: 'Sao Paulo' });
    if (!payload) throw new Error('double: no pix payload');
    const png = await QRCode.toBuffer(payload, { type: 'png' });
    return { encodedImage: png.toString('base64'), payload, expirationDate: `${String(payment.dueDate)} 23:59:59`, description: null };
  }

  async function route(method: string, path: string, query: URLSearchParams, body: Json): Promise<[number, Json | null]> {
    const parts = path.split('/').filter(Boolean);
    const [resource, id, action] = parts;
    // "Recuperar WalletId": the authenticated account's wallet, in a list envelope.
    if (resource === 'wallets' && method === 'GET' && !id) return [200, list([{ object: 'wallet', id: walletId }], query)];
    if (resource === 'customers') {
      if (method === 'GET' && !id) {
        const found = [...customers.values()].filter((c) => !c.deleted && (!query.get('cpfCnpj') || c.cpfCnpj === query.get('cpfCnpj')));
        return [200, list(found, query)];
      }
      if (method === 'GET' && id) return customers.has(id) ? [200, customers.get(id) ?? null] : [404, null];
      if (method === 'POST' && !id) {
        if (typeof body.name !== 'string' || typeof body.cpfCnpj !== 'string') return [400, errorsBody('invalid_object', 'Informe nome e CPF/CNPJ.')];
        const customer: Json = { object: 'customer', id: `cus_${shortId()}`, dateCreated: day(now()), deleted: false, ...body };
        customers.set(String(customer.id), customer);
        return [200, customer];
      }
    }
    if (resource === 'subscriptions') {
      if (method === 'GET' && !id) {
        const reference = query.get('externalReference');
        const found = [...subscriptions.values()].filter((s) => !s.deleted && (!reference || s.externalReference === reference));
        return [200, list(found, query)];
      }
      if (method === 'POST' && !id) return createSubscription(body);
      const subscription = id ? subscriptions.get(id) : undefined;
      if (!subscription || subscription.deleted) return [404, null];
      if (method === 'GET' && action === 'payments') {
        const found = [...payments.values()].filter((p) => p.subscription === id && !p.deleted).sort((a, b) => String(a.dueDate).localeCompare(String(b.dueDate)));
        return [200, list(found, query)];
      }
      if (method === 'GET' && !action) return [200, subscription];
      if (method === 'PUT' && !action) return updateSubscription(subscription, body);
      if (method === 'PUT' && action === 'creditCard') return updateCard(subscription, body);
      if (method === 'DELETE' && !action) {
        subscription.deleted = true;
        for (const payment of payments.values()) if (payment.subscription === id && payment.status === 'PENDING') payment.deleted = true;
        return [200, { deleted: true, id }];
      }
    }
    // Webhooks ("Create new Webhook via API"): up to 10 per account, each with its URL, token and events.
    if (resource === 'webhooks') {
      if (method === 'GET' && !id) return [200, list([...webhooks.values()], query)];
      if (method === 'POST' && !id) {
        if (typeof body.url !== 'string' || !Array.isArray(body.events)) return [400, errorsBody('invalid_object', 'Informe a URL e os eventos.')];
        if (webhooks.size >= 10) return [400, errorsBody('invalid_action', 'Limite de 10 webhooks atingido.')];
        const webhook: Json = { object: 'webhook', id: `wh_${shortId()}`, ...body };
        webhooks.set(String(webhook.id), webhook);
        return [200, webhook];
      }
      const webhook = id ? webhooks.get(id) : undefined;
      if (!webhook) return [404, null];
      if (method === 'PUT' && !action) {
        Object.assign(webhook, body);
        return [200, webhook];
      }
    }
    if (resource === 'payments') {
      if (method === 'GET' && !id) {
        const createdSince = query.get('dateCreated[ge]');
        const paidSince = query.get('paymentDate[ge]');
        const reference = query.get('externalReference');
        const found = [...payments.values()].filter(
          (p) =>
            (!createdSince || String(p.dateCreated) >= createdSince) &&
            (!paidSince || (p.paymentDate !== null && String(p.paymentDate) >= paidSince)) &&
            (!reference || p.externalReference === reference),
        );
        return [200, list(found, query)];
      }
      // A one-off charge ("Criar nova cobrança"): no subscription; a card is captured at once.
      if (method === 'POST' && !id) {
        if (typeof body.customer !== 'string' || !customers.has(body.customer)) return [400, errorsBody('invalid_customer', 'Cliente inválido ou inexistente.')];
        if (typeof body.value !== 'number' || body.value < 5) return [400, errorsBody('invalid_value', 'O valor da cobrança deve ser de no mínimo R$ 5,00.')];
        const card = isJson(body.creditCard) ? body.creditCard : undefined;
        const number = typeof card?.number === 'string' ? card.number : '';
        if (body.billingType === 'CREDIT_CARD' && (!body.creditCardHolderInfo || !body.remoteIp)) return [400, errorsBody('invalid_creditCard', 'Informe os dados do titular do cartão.')];
        const payment = newPayment(
          { id: null, customer: body.customer, billingType: body.billingType, value: body.value, description: body.description ?? null, externalReference: body.externalReference ?? null, ...(number ? { creditCardLast4: number.slice(-4), creditCardBrand: 'VISA' } : {}) },
          String(body.dueDate),
          true,
        );
        return [200, payment];
      }
      const payment = id ? payments.get(id) : undefined;
      if (!payment) return [404, null];
      if (method === 'GET' && !action) return [200, payment];
      if (method === 'DELETE' && !action) {
        if (payment.status !== 'PENDING' && payment.status !== 'OVERDUE') return [400, errorsBody('invalid_action', 'Só é possível remover cobranças aguardando pagamento.')];
        payment.deleted = true;
        return [200, { deleted: true, id }];
      }
      if (method === 'PUT' && !action) {
        if (payment.status !== 'PENDING') return [400, errorsBody('invalid_action', 'Só é possível alterar cobranças aguardando pagamento.')];
        if (typeof body.value === 'number') payment.value = body.value;
        return [200, payment];
      }
      if (method === 'GET' && action === 'pixQrCode') return [200, await pixQrCode(payment)];
      if (method === 'GET' && action === 'identificationField') {
        if (payment.billingType !== 'BOLETO') return [400, errorsBody('invalid_action', 'Cobrança não é um boleto.')];
        return [200, { identificationField: IDENTIFICATION_FIELD, nossoNumero: payment.nossoNumero, barCode: BAR_CODE }];
      }
      if (method === 'POST' && action === 'refund') {
        if (payment.status !== 'RECEIVED' && payment.status !== 'CONFIRMED') return [400, errorsBody('invalid_action', 'Somente cobranças pagas podem ser estornadas.')];
        // Without `value` the whole charge; with it, that much (a partial refund).
        if (typeof body.value === 'number' && body.value > Number(payment.value)) return [400, errorsBody('invalid_value', 'O valor do estorno é maior que o da cobrança.')];
        payment.status = 'REFUNDED';
        payment.refundedValue = typeof body.value === 'number' ? body.value : payment.value;
        return [200, payment];
      }
    }
    return [404, null];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://double');
        const path = url.pathname.replace(/^\/v3/, '');
        const raw = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = raw === '' ? undefined : JSON.parse(raw);
        } catch {
          json = undefined;
        }
        const method = req.method ?? 'GET';
        requests.push({ method, path, query: url.searchParams, headers: req.headers, body: raw, json });
        const answer = (status: number, body: Json | null) => {
          res.writeHead(status, body === null ? {} : { 'content-type': 'application/json' });
          res.end(body === null ? '' : JSON.stringify(body));
        };
        const faultIndex = faults.findIndex((fault) => !fault.path || path.startsWith(fault.path));
        const fault = faultIndex === -1 ? undefined : faults.splice(faultIndex, 1)[0];
        if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
        if (fault?.status) return answer(fault.status, fault.errors ? { errors: fault.errors } : fault.status >= 500 ? { message: 'Internal Server Error' } : null);
        if (req.headers.access_token !== apiKey) return answer(401, null);
        if (method === 'GET' && raw !== '') return answer(403, null);
        const body = isJson(json) ? json : {};
        const [status, payload] = await route(method, path, url.searchParams, body);
        answer(status, payload);
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('double: not listening on a port');
  const { port } = address;

  return {
    baseUrl: `http://127.0.0.1:${port}/v3`,
    apiKey,
    walletId,
    requests,
    requestsTo: (method, path) => requests.filter((request) => request.method === method && request.path === path),
    customers,
    subscriptions,
    payments,
    webhooks,
    failNext: (fault) => {
      faults.push(fault);
    },
    settle: (paymentId, status) => {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`double: no payment ${paymentId}`);
      Object.assign(payment, { status, paymentDate: day(now()), clientPaymentDate: day(now()), confirmedDate: day(now()) });
      return payment;
    },
    addPayment: (partial) => {
      const id = typeof partial.id === 'string' ? partial.id : `pay_${shortId()}`;
      const payment: Json = {
        object: 'payment',
        id,
        dateCreated: day(now()),
        subscription: null,
        value: 10,
        dueDate: day(now()),
        billingType: 'PIX',
        status: 'PENDING',
        paymentDate: null,
        deleted: false,
        ...partial,
      };
      payments.set(id, payment);
      return payment;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
