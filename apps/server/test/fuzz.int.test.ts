import { randomUUID } from 'node:crypto';
import { getTableName, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorResponseSchema } from '@carteirinha/shared/errors';
import { cardValidations, clinics, clinicSettings, rateLimitHits, sessions, signInFailures, webauthnChallenges } from '../src/db/schema.ts';
import type { Database } from '../src/db/client.ts';
import { createClinicWebhookTokenBox } from '../src/modules/payments/providers/index.ts';
import { CALLERS, createCallers, createTestApp, PUBLIC_URL, TEST_AUTH_SECRET, type Caller } from './helpers.ts';
import {
  FAR_DATES,
  hasNul,
  hostileFieldValues,
  hostileParamArb,
  hostileParamValues,
  isFarDate,
  leavesOf,
  MALFORMED_HOSTS,
  MALFORMED_JSON,
  mayAccept,
  nonJsonBodies,
  operationsOf,
  OVERSIZED_BODY,
  RAW_QUERIES,
  refusedValueArb,
  sampleOf,
  withValueAt,
  type HttpMethod,
  type Json,
  type Leaf,
  type Operation,
} from './hostile-requests.ts';

/**
 * The fuzz suite (issue 12, "Done when"; security checklist case 27): every operation of the app's OpenAPI document,
 * called by every kind of caller with malformed, oversized, wrong-type and hostile values, never answers 5xx, always
 * answers an error as `{ error: { code, message } }` in pt-BR, and changes no data. A fixed list of hostile values
 * goes into every parameter and body field; fast-check adds generated requests, seeded (FUZZ_SEED) so a failure can
 * be replayed. better-auth's /api/auth/* is not in the document (no schema of ours): its sign-in, sign-up and reset
 * endpoints get their own fixed list below.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_512);
/** Generated requests per operation (callers drawn among all six): 5 in npm test; `npm run fuzz -w bench` runs many more with fresh seeds. */
const GENERATED_RUNS = Number(process.env.FUZZ_RUNS ?? 5);
/** A caller the access guard stops at the door (before any input is read) gets every n-th fixed request only. */
const DOOR_SAMPLE_EVERY = 10;
const TEST_TIMEOUT_MS = 180_000;

/** Statuses that refuse a request before its input is read: no session, no permission, too big, wrong type, too many. */
const DOOR_STATUSES = new Set([401, 403, 413, 415, 429]);

/** Words of zod's and Fastify's default English messages: a user-facing message must not contain them. */
const ENGLISH = /\b(invalid|expected|required|must|should|unexpected|unsupported|not found|bad request|too (big|small|long|short)|received|failed|cannot|body|error)\b/i;

type HostileRequest = {
  label: string;
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  payload?: string | Buffer;
  /** The request carries a value the operation cannot accept: a 2xx means a hostile write went through. */
  mustRefuse: boolean;
  /** NUL, a date out of range or a malformed host: 400 (or refused at the door). */
  mustBe400: boolean;
};

/** Where the fixed list may put a value the schema could accept: only where the request cannot write anything. */
type Target = Operation & { writes: boolean };

const testApp = await createTestApp();
const callers = await createCallers(testApp);
const operations: Target[] = operationsOf(testApp.app.swagger()).map((operation) => ({ ...operation, writes: operation.method !== 'GET' }));
/** Ids of records that exist (the callers' clinics, plans, accounts): reads get them, writes only with a refused body. */
const existingIds = [...Object.values(callers.fixtures), ...Object.values(callers.userIds)];
/**
 * Every clinic has its own Asaas webhook (issue 22), sealed as connecting the account seals it: a request to a
 * clinic's webhook URL carries that token, so the hostile input reaches the body's checks there too.
 */
const CLINIC_WEBHOOK_TOKEN = randomUUID();
{
  const sealed = createClinicWebhookTokenBox(TEST_AUTH_SECRET).seal(CLINIC_WEBHOOK_TOKEN);
  for (const { id } of await testApp.db.select({ id: clinics.id }).from(clinics)) {
    await testApp.db
      .insert(clinicSettings)
      .values({ clinicId: id, asaasWebhookTokenEncrypted: sealed, asaasWebhookRegisteredAt: new Date() })
      .onConflictDoUpdate({ target: clinicSettings.clinicId, set: { asaasWebhookTokenEncrypted: sealed, asaasWebhookRegisteredAt: new Date() } });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Building requests.
// ---------------------------------------------------------------------------------------------------------------

/** Percent-encodes text as UTF-8, as a browser would (a lone surrogate becomes U+FFFD instead of throwing). */
function encodePathSegment(value: string): string {
  return encodeURIComponent(Buffer.from(value, 'utf8').toString('utf8'));
}

function urlOf(operation: Operation, pathValues: Record<string, string>, query: Array<[string, string]>, rawQuery?: string): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodePathSegment(pathValues[name] ?? randomUUID()));
  const search = [new URLSearchParams(query).toString(), rawQuery ?? ''].filter(Boolean).join('&');
  return search ? `${path}?${search}` : path;
}

function basePathValues(target: Target, index: number): Record<string, string> {
  // A write with no body schema acts on its path alone: it is only ever sent ids that match nothing.
  const useExisting = !target.writes || target.body !== null;
  return Object.fromEntries(target.pathParams.map((param) => [param.name, useExisting ? (existingIds[index % existingIds.length] ?? randomUUID()) : randomUUID()]));
}

function baseQuery(target: Target): Array<[string, string]> {
  return target.query.filter((param) => param.required).map((param) => [param.name, String(sampleOf(param.schema, SEED))]);
}

/** A body of the right shape with one field the schema refuses: what writes are sent when another input is hostile. */
function refusedBody(target: Target, leaves: Leaf[]): string {
  const base = sampleOf(target.body ?? {}, SEED);
  const [first] = leaves;
  return JSON.stringify(first ? withValueAt(base, first.path, [[null]]) : [[null]]);
}

function jsonHeaders(contentType = 'application/json'): Record<string, string> {
  return { 'content-type': contentType };
}

/** The fixed hostile list of one operation: every parameter and field gets every hostile value, then broken bodies. */
function fixedRequests(target: Target): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const { method } = target;
  const leaves = target.body ? leavesOf(target.body) : [];
  const base = target.body ? sampleOf(target.body, SEED) : null;
  const bodyOfOtherInputs = target.writes ? { payload: target.body ? refusedBody(target, leaves) : '{', headers: jsonHeaders() } : {};
  const dateParams = target.query.filter((param) => param.schema.format === 'date').map((param) => param.name);

  target.pathParams.forEach((param) => {
    for (const value of hostileParamValues(param.schema)) {
      const url = urlOf(target, { ...basePathValues(target, requests.length), [param.name]: value }, baseQuery(target));
      requests.push({ label: `path ${param.name}=${JSON.stringify(value).slice(0, 40)}`, method, url, ...bodyOfOtherInputs, mustRefuse: target.writes, mustBe400: hasNul(value) });
    }
  });

  for (const param of target.query) {
    const values = [...hostileParamValues(param.schema)];
    for (const value of values) {
      // A date goes into every date of the operation: a period needs both ends to reach its range check.
      const names = dateParams.includes(param.name) ? dateParams : [param.name];
      const query: Array<[string, string]> = [...baseQuery(target).filter(([name]) => !names.includes(name)), ...names.map((name): [string, string] => [name, value])];
      const url = urlOf(target, basePathValues(target, requests.length), query);
      const mustBe400 = hasNul(value) || (dateParams.includes(param.name) && isFarDate(value));
      requests.push({ label: `query ${param.name}=${JSON.stringify(value).slice(0, 40)}`, method, url, ...bodyOfOtherInputs, mustRefuse: target.writes, mustBe400 });
    }
    // The same parameter given three times arrives as an array.
    const url = urlOf(target, basePathValues(target, requests.length), [...baseQuery(target), [param.name, 'a'], [param.name, 'b'], [param.name, 'c']]);
    requests.push({ label: `query ${param.name} repeated`, method, url, ...bodyOfOtherInputs, mustRefuse: target.writes, mustBe400: false });
  }

  for (const leaf of leaves) {
    const companion = leaves.find((other) => other.path.join('.') !== leaf.path.join('.') && !leaf.path.join('.').startsWith(other.path.join('.')));
    for (const value of hostileFieldValues(leaf.schema)) {
      const refused = hasNul(value) || !mayAccept(leaf.schema, value);
      // A value the field may accept goes with another field the schema refuses: no hostile write can succeed.
      if (!refused && target.writes && !companion) continue;
      const withValue = withValueAt(base, leaf.path, value);
      const body = !refused && target.writes && companion ? withValueAt(withValue, companion.path, [[null]]) : withValue;
      requests.push({
        label: `body ${leaf.path.join('.')}=${JSON.stringify(value).slice(0, 40)}`,
        method,
        url: urlOf(target, basePathValues(target, requests.length), baseQuery(target)),
        payload: JSON.stringify(body),
        headers: jsonHeaders(),
        mustRefuse: target.writes,
        mustBe400: hasNul(value),
      });
    }
  }

  if (target.writes) {
    const url = urlOf(target, basePathValues(target, requests.length), baseQuery(target));
    // A write that reads no body would simply run with a well-formed one: it is sent only what cannot be parsed.
    const bodies = target.body ? MALFORMED_JSON : MALFORMED_JSON.filter((text) => !isJson(text));
    for (const payload of bodies) {
      requests.push({ label: `body ${JSON.stringify(payload.slice(0, 30))}`, method, url, payload, headers: jsonHeaders(), mustRefuse: true, mustBe400: false });
    }
    if (base !== null) {
      const poisoned = `{"__proto__":{"isAdmin":true},${JSON.stringify(base).slice(1)}`;
      requests.push({ label: 'body with __proto__ beside valid fields', method, url, payload: poisoned, headers: jsonHeaders(), mustRefuse: true, mustBe400: false });
    }
    requests.push({ label: 'body over 1 MiB', method, url, payload: OVERSIZED_BODY, headers: jsonHeaders(), mustRefuse: true, mustBe400: false });
    // A write that reads no body may run whatever its body is: it gets other content types only when its path names
    // nothing that exists (a write with no input at all, a backup, would simply run).
    const contentTypeCases = target.body || target.pathParams.length > 0 ? nonJsonBodies(target.body ? refusedBody(target, leaves) : '{') : [];
    for (const { contentType, payload } of contentTypeCases) {
      requests.push({ label: `content-type ${contentType}`, method, url, payload, headers: jsonHeaders(contentType), mustRefuse: true, mustBe400: false });
    }
  }

  for (const rawQuery of RAW_QUERIES) {
    const url = urlOf(target, basePathValues(target, requests.length), baseQuery(target), rawQuery);
    requests.push({ label: `raw query ${rawQuery.slice(0, 40)}`, method, url, ...bodyOfOtherInputs, mustRefuse: target.writes, mustBe400: rawQuery === 'q=%00' });
  }

  const probe = target.path.startsWith('/api/health') || target.path.startsWith('/api/ready');
  for (const host of MALFORMED_HOSTS) {
    const url = urlOf(target, basePathValues(target, requests.length), baseQuery(target));
    const headers = { ...(bodyOfOtherInputs.headers ?? {}), host };
    requests.push({ label: `host ${JSON.stringify(host)}`, method, url, payload: bodyOfOtherInputs.payload, headers, mustRefuse: target.writes, mustBe400: !probe });
  }
  return requests;
}

/** Whether Fastify's JSON parser would read the text (it drops a leading byte-order mark). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

/** A generated body: what is sent, and the JSON value it holds (null for text that is not JSON). */
type GeneratedBody = { payload: string; value: Json };

function generatedBody(target: Target): fc.Arbitrary<GeneratedBody | null> {
  if (!target.writes) return fc.constant(null);
  if (!target.body) {
    // A write that reads no body is sent only bodies that cannot be parsed (a well-formed one would simply run).
    return fc.string({ unit: 'binary', maxLength: 40 }).filter((text) => !isJson(text)).map((text) => ({ payload: text, value: null }));
  }
  const base = sampleOf(target.body, SEED);
  const leaves = leavesOf(target.body);
  const values: Array<fc.Arbitrary<Json>> = [refusedValueArb(target.body)];
  if (leaves.length > 0) values.push(fc.constantFrom(...leaves).chain((leaf) => refusedValueArb(leaf.schema).map((value) => withValueAt(base, leaf.path, value))));
  return fc.oneof(...values).map((value) => ({ payload: JSON.stringify(value), value }));
}

/** Generated requests (fast-check): hostile parameters, and for writes a body the schema refuses or cannot parse. */
function generatedRequest(target: Target): fc.Arbitrary<HostileRequest> {
  const idArb = target.writes && target.body === null ? fc.uuid() : fc.oneof(fc.uuid(), fc.constantFrom(...existingIds));
  const pathArb = fc.record(Object.fromEntries(target.pathParams.map((param) => [param.name, fc.oneof(hostileParamArb, idArb)])));
  const names = target.query.map((param) => param.name);
  const queryArb = names.length > 0 ? fc.array(fc.tuple(fc.constantFrom(...names), hostileParamArb), { maxLength: 3 }) : fc.constant<Array<[string, string]>>([]);
  return fc.tuple(pathArb, queryArb, generatedBody(target)).map(([pathValues, query, body]) => {
    const values: Json[] = [...Object.values(pathValues), ...query.map(([, value]) => value), body?.value ?? null];
    const farDate = query.some(([name, value]) => target.query.find((param) => param.name === name)?.schema.format === 'date' && isFarDate(value));
    return {
      label: `generated ${JSON.stringify({ pathValues, query, body: body?.payload }).slice(0, 300)}`,
      method: target.method,
      url: urlOf(target, pathValues, query),
      ...(body ? { payload: body.payload, headers: jsonHeaders() } : {}),
      mustRefuse: target.writes,
      mustBe400: values.some(hasNul) || farDate,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Sending and judging.
// ---------------------------------------------------------------------------------------------------------------

let addressCounter = 0;
/** A new client address per request: the per-address limits must not turn the run into a wall of 429s. */
function nextAddress(): string {
  addressCounter += 1;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}

/**
 * A provider's webhook is authenticated by its token header, not a session: every caller sends the right token, so
 * the hostile input reaches the body's checks (without it, all would stop at a 401).
 */
function webhookHeaders(url: string): Record<string, string> {
  if (url.startsWith('/api/webhooks/asaas/clinics/')) return { 'asaas-access-token': CLINIC_WEBHOOK_TOKEN };
  return url.startsWith('/api/webhooks/') ? { 'asaas-access-token': testApp.config.payments.webhookToken } : {};
}

function send(caller: Caller, request: HostileRequest): Promise<LightMyRequestResponse> {
  const cookie = caller === 'anonymous' ? undefined : callers.cookies[caller];
  return testApp.app.inject({
    method: request.method,
    url: request.url,
    remoteAddress: nextAddress(),
    headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}), ...webhookHeaders(request.url), ...request.headers },
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
}

type ErrorShape = 'ours' | 'better-auth';

/** What is wrong with an answer to a hostile request (nothing: an empty list). */
function problemsOf(caller: Caller, request: HostileRequest, response: LightMyRequestResponse, shape: ErrorShape = 'ours'): string[] {
  const where = `${caller} ${request.method} ${request.url.slice(0, 120)} [${request.label}] → ${response.statusCode} ${response.body.slice(0, 200)}`;
  const problems: string[] = [];
  const status = response.statusCode;
  if (status >= 500) problems.push(`5xx: ${where}`);
  if (request.mustRefuse && status < 400) problems.push(`hostile write accepted: ${where}`);
  if (request.mustBe400 && status !== 400 && !DOOR_STATUSES.has(status)) problems.push(`expected 400: ${where}`);
  if (status >= 400) problems.push(...errorBodyProblems(response, shape).map((problem) => `${problem}: ${where}`));
  return problems;
}

const betterAuthErrorSchema = z.object({ code: z.string().min(1), message: z.string() });

function errorBodyProblems(response: LightMyRequestResponse, shape: ErrorShape): string[] {
  let body: unknown;
  try {
    body = JSON.parse(response.body);
  } catch {
    return ['error body is not JSON'];
  }
  const ours = errorResponseSchema.safeParse(body);
  if (ours.success) {
    const { message } = ours.data.error;
    if (message.trim() === '') return ['empty error message'];
    if (ENGLISH.test(message)) return [`English error message "${message}"`];
    return [];
  }
  // better-auth answers its own errors as { code, message } in English; the web shows the pt-BR text of the code.
  if (shape === 'better-auth' && betterAuthErrorSchema.safeParse(body).success) return [];
  return ['error body is not { error: { code, message } }'];
}

async function sendAll(caller: Caller, requests: HostileRequest[], shape: ErrorShape = 'ours', statuses = new Set<number>()): Promise<string[]> {
  const problems: string[] = [];
  for (const request of requests) {
    const response = await send(caller, request);
    statuses.add(response.statusCode);
    problems.push(...problemsOf(caller, request, response, shape));
  }
  return problems;
}

/** Whether the access guard refuses this caller before reading any input (it runs before the body is parsed). */
async function stoppedAtTheDoor(caller: Caller, target: Target): Promise<boolean> {
  const probe: HostileRequest = {
    label: 'door',
    method: target.method,
    url: urlOf(target, basePathValues(target, 0), baseQuery(target)),
    ...(target.writes ? { payload: '{', headers: jsonHeaders() } : {}),
    mustRefuse: target.writes,
    mustBe400: false,
  };
  const status = (await send(caller, probe)).statusCode;
  return status === 401 || status === 403;
}

// ---------------------------------------------------------------------------------------------------------------
// The data: one digest per table, read past row-level security (the test's own connection).
// ---------------------------------------------------------------------------------------------------------------

/** Columns that change by design on any signed-in request (the staff inactivity clock), not data the caller sent. */
const BOOKKEEPING_COLUMNS: Record<string, string[]> = { [getTableName(sessions)]: ['last_active_at', 'updated_at'] };

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

function rowsOf<T extends z.ZodType>(result: unknown, row: T): Array<z.infer<T>> {
  return z.object({ rows: z.array(row) }).parse(result).rows;
}

async function tableDigests(db: Database): Promise<Record<string, string>> {
  const tables = rowsOf(
    await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`),
    z.object({ table_name: z.string() }),
  );
  const digests: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    const columns = rowsOf(
      await db.execute(sql`select column_name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`),
      z.object({ column_name: z.string() }),
    )
      .map((column) => column.column_name)
      .filter((column) => !(BOOKKEEPING_COLUMNS[table] ?? []).includes(column));
    const row = `md5(row(${columns.map(quoted).join(', ')})::text)`;
    const [digest] = rowsOf(
      await db.execute(sql.raw(`select count(*)::int as total, coalesce(md5(string_agg(${row}, ',' order by ${row})), '') as digest from ${quoted(table)}`)),
      z.object({ total: z.number(), digest: z.string() }),
    );
    digests[table] = `${digest?.total ?? 0} rows, ${digest?.digest ?? ''}`;
  }
  return digests;
}

const before = await tableDigests(testApp.db);

afterAll(async () => {
  await testApp.close();
});

// ---------------------------------------------------------------------------------------------------------------
// The suite.
// ---------------------------------------------------------------------------------------------------------------

describe('fuzz: every operation of the OpenAPI document, as every caller', () => {
  it('finds the operations in the document', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  for (const target of operations) {
    it(
      `${target.method} ${target.path}: no 5xx, a pt-BR error, no hostile write`,
      async () => {
        const fixed = fixedRequests(target);
        const problems: string[] = [];
        const statuses = new Set<number>();
        for (const caller of CALLERS) {
          const requests = (await stoppedAtTheDoor(caller, target)) ? fixed.filter((_, index) => index % DOOR_SAMPLE_EVERY === 0) : fixed;
          problems.push(...(await sendAll(caller, requests, 'ours', statuses)));
        }
        expect(problems).toEqual([]);
        // Someone got past the access and origin checks to the input itself: the run was not all closed doors.
        expect([...statuses].some((status) => status !== 401 && status !== 403)).toBe(true);

        await fc.assert(
          fc.asyncProperty(fc.constantFrom(...CALLERS), generatedRequest(target), async (caller, request) => {
            const found = problemsOf(caller, request, await send(caller, request));
            if (found.length > 0) throw new Error(`${found.join('\n')}\n(replay with FUZZ_SEED=${SEED})`);
          }),
          { seed: SEED, numRuns: GENERATED_RUNS },
        );
      },
      TEST_TIMEOUT_MS,
    );
  }
});

/**
 * better-auth's endpoints take no schema of ours, so they are not in the document: the ones a stranger reaches
 * (sign-in, sign-up, password reset, e-mail confirmation, the second factor) get the same fixed list, from the fields
 * better-auth reads. Only sign-up could write: values it may accept go with a refused companion field there.
 */
const AUTH_TARGETS: Target[] = [
  authTarget('POST', '/api/auth/sign-in/email', { email: { type: 'string', format: 'email' }, password: { type: 'string' }, rememberMe: { type: 'boolean' } }, false),
  authTarget('POST', '/api/auth/sign-up/email', { email: { type: 'string', format: 'email' }, password: { type: 'string' }, name: { type: 'string' } }, true),
  authTarget('POST', '/api/auth/request-password-reset', { email: { type: 'string', format: 'email' }, redirectTo: { type: 'string' } }, false),
  authTarget('POST', '/api/auth/reset-password', { token: { type: 'string' }, newPassword: { type: 'string' } }, false),
  authTarget('POST', '/api/auth/two-factor/verify-totp', { code: { type: 'string' } }, false),
  // Passkeys (ADR 029): the options are asked with no body; the answers carry a WebAuthn response object.
  authTarget('POST', '/api/auth/passkey/sign-in-options', {}, false),
  authTarget('POST', '/api/auth/passkey/sign-in', { response: { type: 'object' } }, false),
  authTarget('POST', '/api/auth/passkey/second-factor-options', {}, false),
  authTarget('POST', '/api/auth/passkey/second-factor', { response: { type: 'object' } }, false),
  { method: 'GET', path: '/api/auth/verify-email', pathParams: [], query: [{ name: 'token', required: true, schema: { type: 'string' } }, { name: 'callbackURL', required: false, schema: { type: 'string' } }], body: null, writes: false },
  { method: 'GET', path: '/api/auth/reset-password/{token}', pathParams: [{ name: 'token', required: true, schema: { type: 'string' } }], query: [{ name: 'callbackURL', required: false, schema: { type: 'string' } }], body: null, writes: false },
];

function authTarget(method: HttpMethod, path: string, properties: Record<string, { type: string; format?: string }>, writes: boolean): Target {
  return { method, path, pathParams: [], query: [], body: { type: 'object', properties, required: Object.keys(properties).filter((key) => key !== 'rememberMe' && key !== 'redirectTo') }, writes };
}

describe('fuzz: better-auth endpoints (/api/auth/*), anonymous', () => {
  for (const target of AUTH_TARGETS) {
    it(
      `${target.method} ${target.path}: no 5xx, NUL refused, no account made`,
      async () => {
        // Sign-in's refusals and fields better-auth may accept are not writes: only sign-up must refuse them all.
        const requests = fixedRequests(target).map((request) => ({ ...request, mustRefuse: request.mustRefuse && target.writes }));
        expect(await sendAll('anonymous', requests, 'better-auth')).toEqual([]);
      },
      TEST_TIMEOUT_MS,
    );
  }
});

/** The answers the attack probe got as 500 (issue 12, item 13), each named: the fuzz suite above finds them too. */
describe('issue 12 item 13: hostile input answered 400 in pt-BR, not 500', () => {
  async function expect400(caller: Caller, request: Omit<HostileRequest, 'mustRefuse' | 'mustBe400'>, message: RegExp) {
    const response = await send(caller, { ...request, mustRefuse: true, mustBe400: true });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
  }
  const invalidCharacter = /caractere inválido/;

  it('a NUL in the public search, the sign-in e-mail or a clinic name', async () => {
    await expect400('anonymous', { label: 'search', method: 'GET', url: '/api/public/clinics?q=cl%00nica' }, invalidCharacter);
    const signIn = JSON.stringify({ email: 'ninguem\u0000@teste.dev', password: 'senha-errada-123' });
    await expect400('anonymous', { label: 'sign-in', method: 'POST', url: '/api/auth/sign-in/email', payload: signIn, headers: jsonHeaders() }, invalidCharacter);
    const clinic = JSON.stringify({ name: 'Clínica\u0000', cnpj: '11.444.777/0001-61', slug: 'clinica-nul', planId: null });
    await expect400('admin', { label: 'clinic', method: 'POST', url: '/api/admin/clinics', payload: clinic, headers: jsonHeaders() }, invalidCharacter);
  });

  it('report dates near year 1 or 9999', async () => {
    for (const day of FAR_DATES) {
      for (const path of ['/api/admin/reports/summary', '/api/admin/reports/planos', '/api/admin/reports/clinicas.csv']) {
        await expect400('admin', { label: 'far date', method: 'GET', url: `${path}?from=${day}&to=${day}` }, /01\/01\/2000/);
      }
    }
  });

  it('a Host header with user info, or with a port that is not a number', async () => {
    const invalidHost = /endereço não é válido/;
    for (const host of ['user@demo.localhost', 'user@localhost']) {
      await expect400('anonymous', { label: 'tenant', method: 'GET', url: '/api/tenant', headers: { host } }, invalidHost);
      await expect400('admin', { label: 'session', method: 'GET', url: '/api/auth/get-session', headers: { host } }, invalidHost);
    }
    const signIn = JSON.stringify({ email: 'ninguem@teste.dev', password: 'senha-errada-123' });
    await expect400('anonymous', { label: 'sign-in', method: 'POST', url: '/api/auth/sign-in/email', payload: signIn, headers: { ...jsonHeaders(), host: 'localhost:abc' } }, invalidHost);
    const page = await testApp.app.inject({ method: 'GET', url: '/entrar', headers: { host: 'user@localhost' } });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Endereço inválido');
  });

  it('a confirmation link whose callbackURL is neither a path nor a URL', async () => {
    await expect400('anonymous', { label: 'verify', method: 'GET', url: '/api/auth/verify-email?token=abc&callbackURL=abc' }, /Dados inválidos/);
  });

  it('a body nested 50 000 levels deep, and a logo upload cut short', async () => {
    const deep = `{"email":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    await expect400('anonymous', { label: 'deep', method: 'POST', url: '/api/auth/sign-up/email', payload: deep, headers: jsonHeaders() }, /Requisição inválida/);
    const multipart = '------fuzz\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
    await expect400(
      'clinicAdminA',
      { label: 'logo', method: 'POST', url: '/api/clinic/branding/logo', payload: multipart, headers: jsonHeaders('multipart/form-data; boundary=----fuzz') },
      /./,
    );
  });

  it('a path parameter past the router limit answers the API error body', async () => {
    const response = await send('admin', { label: 'long id', method: 'GET', url: `/api/admin/clinics/${'a'.repeat(500)}`, mustRefuse: false, mustBe400: false });
    expect(response.statusCode).toBe(414);
    expect(errorBodyProblems(response, 'ours')).toEqual([]);
  });
});

describe('fuzz: the data', () => {
  it('no hostile request changed any table (refused sign-ins, card validation attempts, passkey challenges and rate-limit hits are recorded by design)', async () => {
    // Ledgers written on every attempt, refused ones included: sign-in failures (the throttle), and card_validations,
    // the audit of every validation attempt (issue 15: even an unreadable token is an attempt the clinic must see).
    // A passkey's options take no input: each request is handed a 5-minute challenge, kept until used or expired (ADR 029).
    // A rate-limited route counts every request, refused or not, in the database that every process shares (ADR 030).
    const ledgers = new Set<string>([getTableName(signInFailures), getTableName(cardValidations), getTableName(webauthnChallenges), getTableName(rateLimitHits)]);
    const after = await tableDigests(testApp.db);
    const withoutLedger = (digests: Record<string, string>) => Object.fromEntries(Object.entries(digests).filter(([table]) => !ledgers.has(table)));
    expect(withoutLedger(after)).toEqual(withoutLedger(before));
  });
});
