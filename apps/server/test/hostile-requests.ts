import fc from 'fast-check';
import { z } from 'zod';
import { CALENDAR_DAY_MAX, CALENDAR_DAY_MIN } from '@carteirinha/shared/constants';

/**
 * The fuzz suite's generator: reads the operations of the app's own OpenAPI document and builds hostile requests for
 * each (malformed, oversized, wrong-type and odd values in every path parameter, query parameter and body field, and
 * broken bodies). Nothing here names an endpoint: a new route is covered by being in the document.
 */

/** A JSON value (fast-check's type, so generated values need no conversion). */
export type Json = fc.JsonValue;
type JsonObject = { [key: string]: Json | undefined };

/** The part of JSON Schema that @fastify/swagger writes for our zod contracts. */
export type JsonSchema = {
  type?: string | string[] | undefined;
  properties?: Record<string, JsonSchema> | undefined;
  required?: string[] | undefined;
  items?: JsonSchema | undefined;
  anyOf?: JsonSchema[] | undefined;
  oneOf?: JsonSchema[] | undefined;
  allOf?: JsonSchema[] | undefined;
  enum?: unknown[] | undefined;
  format?: string | undefined;
  pattern?: string | undefined;
  minimum?: number | undefined;
  maximum?: number | undefined;
  exclusiveMinimum?: boolean | number | undefined;
  exclusiveMaximum?: boolean | number | undefined;
  minLength?: number | undefined;
  maxLength?: number | undefined;
  minItems?: number | undefined;
  maxItems?: number | undefined;
  nullable?: boolean | undefined;
  additionalProperties?: boolean | JsonSchema | undefined;
};

const jsonSchemaShape: z.ZodType<JsonSchema> = z.lazy(() =>
  z.object({
    type: z.union([z.string(), z.array(z.string())]).optional(),
    properties: z.record(z.string(), jsonSchemaShape).optional(),
    required: z.array(z.string()).optional(),
    items: jsonSchemaShape.optional(),
    anyOf: z.array(jsonSchemaShape).optional(),
    oneOf: z.array(jsonSchemaShape).optional(),
    allOf: z.array(jsonSchemaShape).optional(),
    enum: z.array(z.unknown()).optional(),
    format: z.string().optional(),
    pattern: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    exclusiveMinimum: z.union([z.boolean(), z.number()]).optional(),
    exclusiveMaximum: z.union([z.boolean(), z.number()]).optional(),
    minLength: z.number().optional(),
    maxLength: z.number().optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    nullable: z.boolean().optional(),
    additionalProperties: z.union([z.boolean(), jsonSchemaShape]).optional(),
  }),
);

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const parameterShape = z.object({ in: z.string(), name: z.string(), required: z.boolean().optional(), schema: jsonSchemaShape.optional() });
const operationShape = z.object({
  parameters: z.array(parameterShape).optional(),
  requestBody: z.object({ content: z.record(z.string(), z.object({ schema: jsonSchemaShape.optional() })) }).optional(),
});
const documentShape = z.object({ paths: z.record(z.string(), z.record(z.string(), z.unknown())) });

export type Param = { name: string; required: boolean; schema: JsonSchema };
export type Operation = { method: HttpMethod; path: string; pathParams: Param[]; query: Param[]; body: JsonSchema | null };

function httpMethodOf(key: string): HttpMethod | null {
  return HTTP_METHODS.find((method) => method === key.toUpperCase()) ?? null;
}

/** Every operation of an OpenAPI document (`app.swagger()`), with its parameters and JSON body schema. */
export function operationsOf(document: unknown): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(documentShape.parse(document).paths)) {
    for (const [key, value] of Object.entries(item)) {
      const method = httpMethodOf(key);
      if (!method) continue;
      const operation = operationShape.parse(value);
      const params = (where: string) =>
        (operation.parameters ?? []).filter((p) => p.in === where).map((p) => ({ name: p.name, required: p.required ?? where === 'path', schema: p.schema ?? {} }));
      const body = operation.requestBody?.content['application/json']?.schema ?? null;
      operations.push({ method, path, pathParams: params('path'), query: params('query'), body });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------------------------
// What a schema accepts, and a plausible value for it.
// ---------------------------------------------------------------------------------------------------------------

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function isRecord(value: Json | undefined): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function withinNumberBounds(schema: JsonSchema, value: number): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (minimum !== undefined && (exclusiveMinimum === true ? value <= minimum : value < minimum)) return false;
  if (maximum !== undefined && (exclusiveMaximum === true ? value >= maximum : value > maximum)) return false;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
  return true;
}

function acceptsType(schema: JsonSchema, type: string, value: Json): boolean {
  switch (type) {
    case 'string':
      return (
        typeof value === 'string' &&
        value.length >= (schema.minLength ?? 0) &&
        value.length <= (schema.maxLength ?? Infinity) &&
        (schema.pattern === undefined || new RegExp(schema.pattern).test(value))
      );
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && withinNumberBounds(schema, value);
    case 'number':
      return typeof value === 'number' && withinNumberBounds(schema, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return (
        Array.isArray(value) &&
        value.length >= (schema.minItems ?? 0) &&
        value.length <= (schema.maxItems ?? Infinity) &&
        value.every((item) => mayAccept(schema.items ?? {}, item))
      );
    case 'object':
      return (
        isRecord(value) &&
        (schema.required ?? []).every((key) => key in value) &&
        Object.entries(value).every(([key, item]) => {
          if (item === undefined) return true;
          const property = schema.properties?.[key];
          if (property) return mayAccept(property, item);
          return schema.additionalProperties !== false;
        })
      );
    default:
      return true;
  }
}

/**
 * Whether the body schema could accept the value. Our zod schemas check more than their JSON Schema shows (CNPJ
 * digits, transforms), so `true` means "maybe"; `false` means the request must be refused.
 */
export function mayAccept(schema: JsonSchema, value: Json): boolean {
  if (value === null && schema.nullable === true) return true;
  // A form sends a cleared field as '' (or spaces): our schemas read it as "not given" wherever that makes sense.
  if (typeof value === 'string' && value.trim() === '') return true;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return branches.some((branch) => mayAccept(branch, value));
  if (schema.allOf && !schema.allOf.every((part) => mayAccept(part, value))) return false;
  if (schema.enum) return schema.enum.some((allowed) => allowed === value);
  const types = typesOf(schema);
  return types.length === 0 || types.some((type) => acceptsType(schema, type, value));
}

function sampleString(schema: JsonSchema, seed: number): string {
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.format === 'date') return '2024-01-15';
  if (schema.format === 'date-time') return '2024-01-15T12:00:00.000Z';
  if (schema.format === 'email') return 'fuzz@teste.dev';
  if (schema.pattern) {
    try {
      const [value] = fc.sample(fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }), { seed, numRuns: 1 });
      if (value !== undefined) return value;
    } catch {
      // A pattern fast-check cannot generate from (look-aheads): a plain word, the field is then simply refused.
    }
  }
  const length = Math.min(Math.max(schema.minLength ?? 0, 5), schema.maxLength ?? 5);
  return 'fuzzy'.repeat(Math.ceil(length / 5)).slice(0, length);
}

function sampleNumber(schema: JsonSchema): number {
  const floor = schema.minimum === undefined ? 1 : schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0);
  return schema.maximum === undefined ? floor : Math.min(floor, schema.maximum);
}

/** A plausible value for a schema (its required fields only): the base that one hostile value is put into. */
export function sampleOf(schema: JsonSchema, seed = 1): Json {
  const branch = (schema.anyOf ?? schema.oneOf)?.find((candidate) => !(candidate.enum && candidate.enum.length === 1 && candidate.enum[0] === ''));
  if (branch) return sampleOf(branch, seed);
  const first = schema.enum?.[0];
  if (typeof first === 'string' || typeof first === 'number' || typeof first === 'boolean') return first;
  const [type] = typesOf(schema);
  switch (type) {
    case 'string':
      return sampleString(schema, seed);
    case 'integer':
    case 'number':
      return sampleNumber(schema);
    case 'boolean':
      return true;
    case 'array':
      return [sampleOf(schema.items ?? {}, seed)];
    case 'object': {
      const result: JsonObject = {};
      for (const key of schema.required ?? []) result[key] = sampleOf(schema.properties?.[key] ?? {}, seed);
      return result;
    }
    // A schema that names no type takes any value.
    case undefined:
    default:
      return 'fuzz';
  }
}

/** A field of a body: where it is (object keys, array indexes) and its schema. */
export type Leaf = { path: Array<string | number>; schema: JsonSchema };

/** The fields of a body schema, nested ones included (an array's first item stands for all). */
export function leavesOf(schema: JsonSchema, path: Array<string | number> = []): Leaf[] {
  const leaves: Leaf[] = [];
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    leaves.push({ path: [...path, key], schema: property });
    if (property.properties) leaves.push(...leavesOf(property, [...path, key]));
    if (property.items?.properties) leaves.push(...leavesOf(property.items, [...path, key, 0]));
  }
  return leaves;
}

/** A copy of `base` with `value` at `path` (missing objects and arrays on the way are made). */
export function withValueAt(base: Json | undefined, path: Array<string | number>, value: Json): Json {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === 'number') {
    const array = Array.isArray(base) ? [...base] : [];
    array[head] = withValueAt(array[head] ?? null, rest, value);
    return array;
  }
  const object: JsonObject = isRecord(base) ? { ...base } : {};
  object[head] = withValueAt(object[head] ?? null, rest, value);
  return object;
}

// ---------------------------------------------------------------------------------------------------------------
// The hostile values.
// ---------------------------------------------------------------------------------------------------------------

export const NUL = '\u0000';
/** 10 000+ characters: past every limit a text field of ours has. Not blank, so no trim makes them short. */
const LONG_STRINGS = ['a'.repeat(10_001), 'ção😀'.repeat(2_600)];
const NUL_STRINGS = [`ab${NUL}cd`, NUL, `fuzz@teste.dev${NUL}`];
/** Values a free-text field may well accept: they must reach the database as plain data and answer 2xx or 4xx. */
export const ODD_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE clinics; --",
  '1; SELECT pg_sleep(5)',
  '%00',
  '%',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '\u202Eevil\u202C',
  'Z\u0335\u0327\u0324a\u0301\u0300l\u0338g\u0337o',
  '\uD800',
  '😀🏳️‍🌈',
  '  ',
  '',
  '__proto__',
  'constructor',
  'null',
  '-1',
  '1e309',
  '00000000-0000-0000-0000-000000000000',
];
/** Calendar days well-formed but far outside what a date filter accepts (CALENDAR_DAY_MIN..CALENDAR_DAY_MAX). */
export const FAR_DATES = ['0001-01-01', '9999-12-31', '1899-12-31', '2101-01-01'];
/** Numbers, and numbers written as text, that no field of ours has a use for. */
const HOSTILE_NUMBERS: Json[] = [-1, 0, 0.5, 1e308, -1e308, 2 ** 31, 2 ** 64, Number.MAX_SAFE_INTEGER + 2];
const NUMERIC_STRINGS = ['-1', '0', '1.5', '1e308', '99999999999999999999999', 'NaN', 'Infinity', '0x10', ''];
/** Wrong types for any field: objects where text is expected, arrays where objects are, prototype keys. */
const WRONG_TYPES: Json[] = [true, null, {}, [], [[null]], ['a', 'b'], JSON.parse('{"__proto__":{"polluted":true}}'), { $gt: '' }];

/**
 * The odd texts every field gets; the rest of ODD_STRINGS (and the other long and NUL variants) come through the
 * generated part, so the fixed list stays short enough to send to every field of every operation.
 */
const CORE_ODD_STRINGS = ["' OR '1'='1", '\uD800', '😀🏳️‍🌈', '<script>alert(1)</script>', '', '__proto__'];

/** Every hostile value a body field is sent, in a fixed order. */
export function hostileFieldValues(schema: JsonSchema): Json[] {
  const dates = schema.format === 'date' ? FAR_DATES : [];
  return [NUL_STRINGS[0] ?? NUL, LONG_STRINGS[1] ?? '', ...CORE_ODD_STRINGS, ...dates, -1, 1e308, 2 ** 64, true, null, {}, [[null]], ['a', 'b'], ...WRONG_TYPES.slice(-2)];
}

/** Every hostile value a path or query parameter is sent (as text). */
export function hostileParamValues(schema: JsonSchema): string[] {
  const dates = schema.format === 'date' ? FAR_DATES : [];
  return [NUL_STRINGS[0] ?? NUL, LONG_STRINGS[0] ?? '', ...CORE_ODD_STRINGS, ...dates, '-1', '1e308', '99999999999999999999999', 'NaN'];
}

/** Whether a value holds a NUL anywhere (a key included). */
export function hasNul(value: Json | undefined): boolean {
  if (typeof value === 'string') return value.includes(NUL);
  if (Array.isArray(value)) return value.some(hasNul);
  if (isRecord(value)) return Object.entries(value).some(([key, item]) => key.includes(NUL) || hasNul(item));
  return false;
}

/** A well-formed calendar day outside the accepted range: must be answered 400. */
export function isFarDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && (value < CALENDAR_DAY_MIN || value > CALENDAR_DAY_MAX) && !Number.isNaN(Date.parse(value));
}

/** Bodies that are not JSON, or not what any operation takes, sent as application/json. */
export const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'undefined',
  'NaN',
  '\uFEFF{}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[]',
  '"texto"',
  '42',
  'null',
  '[{}]',
  // Nested far deeper than any contract: must not overflow a stack anywhere.
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
];

/** More than the 1 MiB body limit. */
export const OVERSIZED_BODY = `{"x":"${'a'.repeat(1_100_000)}"}`;

/** Bodies under other content types: JSON text as text/plain, a form, broken multipart, XML, bytes that are not UTF-8. */
export function nonJsonBodies(json: string): Array<{ contentType: string; payload: string | Buffer }> {
  return [
    { contentType: 'text/plain', payload: json },
    { contentType: 'application/x-www-form-urlencoded', payload: 'name=fuzz&__proto__[polluted]=1' },
    { contentType: 'multipart/form-data; boundary=----fuzz', payload: '------fuzz\r\nContent-Disposition: form-data; name="x"\r\n\r\nabc' },
    { contentType: 'application/xml', payload: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>' },
    { contentType: 'application/json; charset=utf-16', payload: json },
    { contentType: 'application/json', payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]) },
  ];
}

/** Query strings that no parser should choke on: broken escapes, invalid UTF-8, prototype keys. */
export const RAW_QUERIES = ['%', '%E0%A4%A', '%FF%FE', 'q=%00', '__proto__[polluted]=1&constructor[prototype][polluted]=1', 'a=1&a=2&a=3', `q=${'%C3%A7'.repeat(5_000)}`];

/** Host headers that are not a host: user info, spaces, a port that is not a number, NUL. */
export const MALFORMED_HOSTS = ['user@localhost', 'user:senha@demo.localhost', 'local host', 'localhost:abc', 'localhost:99999', 'a\u0000b', 'localhost/x', '[::1', 'exemplo.com%2f..'];

// ---------------------------------------------------------------------------------------------------------------
// Generated values (fast-check), for the property part of the suite.
// ---------------------------------------------------------------------------------------------------------------

/** Any text, full Unicode (lone surrogates included), sometimes with a NUL, sometimes 10 000+ characters. */
export const hostileStringArb: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}${NUL}${b}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }).filter((s) => s.trim().length > 0).map((s) => s.repeat(Math.ceil(10_001 / s.length))),
  fc.constantFrom(...ODD_STRINGS, ...FAR_DATES, ...NUMERIC_STRINGS, ...NUL_STRINGS, ...LONG_STRINGS),
);

/** A value for a parameter: hostile text, or a number of any size written as text. */
export const hostileParamArb: fc.Arbitrary<string> = fc.oneof(
  hostileStringArb,
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.date({ noInvalidDate: true, min: new Date(-8_639_000_000_000_000), max: new Date(8_639_000_000_000_000) }).map((d) => d.toISOString().slice(0, 10)),
);

/** A JSON value a field with this schema refuses (a wrong type, or text past its limits, or a NUL). */
export function refusedValueArb(schema: JsonSchema): fc.Arbitrary<Json> {
  const anyJson: fc.Arbitrary<Json> = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
  return fc
    .oneof(anyJson, hostileStringArb, fc.double({ noNaN: true }), fc.constantFrom(...WRONG_TYPES, ...HOSTILE_NUMBERS))
    .filter((value) => hasNul(value) || !mayAccept(schema, value));
}
