import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { isValidPixKey } from '@brazilian-utils/brazilian-utils';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** The proxy names proxy-addr (Fastify's trustProxy) knows besides addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry) || ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * Which proxies may tell the client's address (`X-Forwarded-For`): how many hops sit in front of the server, or their
 * addresses. `true` would believe an address any client writes into the header itself, so it is refused (ADR 009).
 */
const trustProxyFromEnv = z
  .string()
  .optional()
  .transform((raw, ctx): false | number | string[] => {
    const value = raw?.trim() ?? '';
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'TRUST_PROXY=true would trust an X-Forwarded-For written by any client; set the number of proxies in front of the server (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.0/8,127.0.0.1)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    const wrong = entries.filter((entry) => !isProxyAddress(entry));
    if (wrong.length > 0) {
      ctx.addIssue({ code: 'custom', message: `not a hop count, an IP address or a CIDR: ${wrong.join(', ')}` });
      return z.NEVER;
    }
    return entries;
  });

/** The SMTP ports 'Testar Conexão' and the Configurações server may use: submission, SMTPS, relay, and 2525. */
export const DEFAULT_SMTP_PORTS = [25, 465, 587, 2525];

const portListFromEnv = z
  .string()
  .optional()
  .transform((raw, ctx): number[] => {
    if (raw === undefined || raw.trim() === '') return DEFAULT_SMTP_PORTS;
    const ports = raw.split(',').map((entry) => Number(entry.trim()));
    if (ports.some((port) => !Number.isInteger(port) || port < 1 || port > 65_535)) {
      ctx.addIssue({ code: 'custom', message: 'a comma-separated list of ports between 1 and 65535' });
      return z.NEVER;
    }
    return ports;
  });

/** OpenStreetMap's standard tiles and the attribution its tile usage policy asks for: the map's default (ADR 024). */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_MAP_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';

/**
 * The origin the map's tiles come from, for the CSP's img-src: `https://{s}.tile.example.org` becomes
 * `https://*.tile.example.org`. Null when the URL is not an http(s) URL with a host (a path on this server needs none).
 */
export function tileOriginOf(url: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/.exec(url);
  if (!match) return null;
  const host = (match[2] ?? '').replace('{s}', '*');
  return /^[a-zA-Z0-9.*:[\]-]+$/.test(host) ? `${match[1]}://${host}` : null;
}

/** A Leaflet tile URL template: {z}, {x} and {y}, on http(s) or a path of this server. */
const tileUrlFromEnv = z
  .string()
  .default(DEFAULT_MAP_TILE_URL)
  .refine((url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)), 'a tile URL template with {z}, {x} and {y}')
  .refine((url) => url.startsWith('/') || tileOriginOf(url) !== null, 'an http(s) URL (its host may use {s}) or a path of this server');

/** Asaas's sandbox (its OpenAPI `servers`): the default, so a deployment charges real money only when told to. */
export const ASAAS_SANDBOX_URL = 'https://api-sandbox.asaas.com/v3';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  /**
   * A direct connection to DATABASE_URL's server when DATABASE_URL goes through PgBouncer in transaction mode: the
   * migrations' advisory lock, LISTEN and pg_dump use it, and the app sends its statements unnamed through the pooler.
   */
  DATABASE_DIRECT_URL: z.string().url().optional(),
  /**
   * Connections each server process keeps to PostgreSQL (and as many to the replica). PostgreSQL serves best with
   * about twice its cores busy at once across every process: size it by that, not by the traffic.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** A streaming replica of DATABASE_URL's server that reports, dashboards and exports read from (ADR 033). */
  DATABASE_REPLICA_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  /** The platform's own domain: clinics live at `<slug>.<MAIN_DOMAIN>` unless they bring their own domain. */
  MAIN_DOMAIN: z
    .string()
    .regex(/^[a-z0-9.-]+$/)
    .default('localhost'),
  AUTH_SECRET: z.string().min(32).optional(),
  SEED_DEMO: booleanFromEnv,
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Carteirinha <nao-responda@carteirinha.dev>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxyFromEnv,
  SMTP_ALLOWED_PORTS: portListFromEnv,
  /** Print the development outbox's e-mails (links included) to the log; `npm run dev` turns it on. */
  LOG_OUTBOX_EMAILS: booleanFromEnv,
  /** Serve the OpenAPI viewer and document at /api/docs; `npm run dev` turns it on. */
  API_DOCS: booleanFromEnv,
  /**
   * Server processes on this machine (node:cluster, one port): each answers requests and runs jobs. More than one
   * needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Run background jobs in this process (default on); off for a process that should only answer requests. */
  JOBS_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === undefined || value === 'true' || value === '1'),
  /** Sign-in attempts one IP may make per window (SIGN_IN_WINDOW_MINUTES, which the address limit below shares). */
  SIGN_IN_IP_LIMIT: z.coerce.number().int().positive().default(30),
  /** Card validations one clinic user may make per minute (issue 15: rate limited per clinic user). */
  CARD_VALIDATIONS_PER_MINUTE: z.coerce.number().int().positive().default(60),
  /**
   * How long a process keeps a caller's session, user, role and clinic between requests (issue 28); every change to
   * them clears it at once on every process (LISTEN/NOTIFY, ADR 035). 0 reads them on every request.
   */
  CALLER_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /**
   * How long a process keeps the dashboards' figures at most (issue 28, ADR 036): any change to a row they count clears
   * them at once on every process; this bounds only what the clock alone moves (30 days of sign-ups, trials ending).
   * 0 computes them on every request.
   */
  FIGURES_CACHE_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Failed sign-ins one account may take from one address per window: that address alone is then held back. */
  SIGN_IN_ADDRESS_FAILURE_LIMIT: z.coerce.number().int().positive().default(10),
  /** Failed sign-ins one account may take per hour from all addresses (security checklist: ≤ 100), with a growing delay. */
  SIGN_IN_ACCOUNT_FAILURE_LIMIT: z.coerce.number().int().positive().default(100),
  SIGN_IN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  /** The proof-of-work captcha of sign-up, reset and sign-in after failures (ADR 029): `off` only by choice. */
  CAPTCHA: z.enum(['on', 'off']).default('on'),
  /** PBKDF2 iterations per try: the cost of one guess, in the browser and once on the server. */
  CAPTCHA_COST: z.coerce.number().int().min(1).max(100_000).default(1_000),
  /** The solving counter is drawn up to this: about half of it is the tries a browser makes (the work asked). */
  CAPTCHA_MAX_COUNTER: z.coerce.number().int().min(2).max(1_000_000).default(4_000),
  CAPTCHA_EXPIRES_MINUTES: z.coerce.number().int().min(1).max(60).default(10),
  /** Failed sign-ins from one address (any account, per SIGN_IN_WINDOW_MINUTES) after which sign-in asks the captcha. */
  CAPTCHA_AFTER_SIGN_IN_FAILURES: z.coerce.number().int().min(0).default(3),
  /**
   * Accept push subscriptions whose endpoint is plain http on a loopback address (a local push service double, for
   * tests). Off: only https endpoints on public host names, as every browser's push service gives (issue 29).
   */
  PUSH_LOOPBACK_ENDPOINTS: z.enum(['on', 'off']).default('off'),
  WEB_DIST_DIR: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** The pg_dump that backs up a PostgreSQL database: its major version must be at least the server's. */
  PG_DUMP_PATH: z.string().min(1).default('pg_dump'),
  /** Who charges the patients: the embedded `local` provider (default) or Asaas (DESIGN.md §2 "Payments"). */
  PAYMENT_PROVIDER: z.enum(['local', 'asaas']).default('local'),
  /** The platform's Asaas key: used for a clinic that has not connected its own subaccount key. */
  ASAAS_API_KEY: z.string().min(1).optional(),
  ASAAS_BASE_URL: z.string().url().default(ASAAS_SANDBOX_URL),
  /** The `asaas-access-token` every webhook must carry; the local provider's 'Simular pagamento' sends it too. */
  ASAAS_WEBHOOK_TOKEN: z.string().min(16).optional(),
  /** The platform's wallet: its 10 % fee is split to it on every charge (specification §9). */
  ASAAS_PLATFORM_WALLET_ID: z.string().min(1).optional(),
  /** The network map's tiles (Leaflet URL template) and the attribution their provider asks to be shown (ADR 024). */
  MAP_TILE_URL: tileUrlFromEnv,
  MAP_TILE_ATTRIBUTION: z.string().min(1).default(DEFAULT_MAP_TILE_ATTRIBUTION),
  /** The Pix key the local provider's BR Codes name; without it each clinic gets a stable demo key. */
  PIX_KEY: z
    .string()
    .optional()
    .refine((key) => key === undefined || isValidPixKey(key), 'not a Pix key (CPF, CNPJ, e-mail, +55 phone or random key)'),
}).refine((env) => env.PAYMENT_PROVIDER !== 'asaas' || env.ASAAS_WEBHOOK_TOKEN !== undefined, {
  path: ['ASAAS_WEBHOOK_TOKEN'],
  message: 'required when PAYMENT_PROVIDER=asaas (at least 16 characters): the token Asaas sends in asaas-access-token',
}).refine((env) => env.DATABASE_REPLICA_URL === undefined || env.DATABASE_URL !== undefined, {
  path: ['DATABASE_REPLICA_URL'],
  message: 'a replica needs its primary: set DATABASE_URL too',
}).refine((env) => env.DATABASE_DIRECT_URL === undefined || env.DATABASE_URL !== undefined, {
  path: ['DATABASE_DIRECT_URL'],
  message: 'the direct connection is beside a pooled DATABASE_URL: set DATABASE_URL too',
}).refine((env) => env.WEB_CONCURRENCY === 1 || env.DATABASE_URL !== undefined, {
  path: ['WEB_CONCURRENCY'],
  message: 'more than one process needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process',
});

/** What the payment providers read (modules/payments/providers/index.ts). */
export type PaymentsConfig = {
  provider: 'local' | 'asaas';
  asaas: { apiKey: string | undefined; baseUrl: string; platformWalletId: string | undefined };
  /** Webhooks must carry it (asaas-access-token). Random per start for the local provider when not set. */
  webhookToken: string;
  pixKey: string | undefined;
};

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseReplicaUrl: string | undefined;
  databaseDirectUrl: string | undefined;
  databasePoolSize: number;
  publicUrl: string;
  mainDomain: string;
  authSecret: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and CIDRs (never `true`). */
  trustProxy: false | number | string[];
  /** Ports an SMTP server from Configurações may listen on. */
  smtpAllowedPorts: number[];
  logOutboxEmails: boolean;
  apiDocs: boolean;
  captcha: CaptchaConfig;
  /** Push subscriptions to a local push service double are accepted (tests only; issue 29). */
  pushLoopbackEndpoints: boolean;
  /** Whether server.ts starts the job runner (ADR 012). */
  jobsEnabled: boolean;
  /** Server processes server.ts forks (node:cluster); 1 runs in this process. */
  webConcurrency: number;
  signInIpLimit: number;
  cardValidationsPerMinute: number;
  callerCacheMs: number;
  figuresCacheMs: number;
  signInAddressFailureLimit: number;
  signInAccountFailureLimit: number;
  signInWindowMs: number;
  webDistDir: string;
  /** 'Login com Google' needs both; the admin toggle has no effect without them. */
  google: { clientId: string; clientSecret: string } | undefined;
  /** The pg_dump for 'Fazer Backup Agora' and the daily backup on PostgreSQL. */
  pgDumpPath: string;
  payments: PaymentsConfig;
  /** The network map's tiles: delivered to the browser by GET /api/tenant, allowed by the CSP's img-src. */
  mapTiles: { url: string; attribution: string };
};

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/** The captcha's switches and work (ADR 029). */
export type CaptchaConfig = { enabled: boolean; cost: number; maxCounter: number; expiresMs: number; afterSignInFailures: number };

/**
 * Reads the environment once (CONVENTIONS.md: nothing else reads process.env). Throws with every problem listed so
 * a misconfigured deployment fails at start, not at the first request.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    mainDomain: e.MAIN_DOMAIN,
    authSecret: e.AUTH_SECRET,
    // The demo accounts are for the embedded default only, unless asked for (issue: demo data).
    seedDemo: e.SEED_DEMO || e.DATABASE_URL === undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    smtpAllowedPorts: e.SMTP_ALLOWED_PORTS,
    logOutboxEmails: e.LOG_OUTBOX_EMAILS,
    apiDocs: e.API_DOCS,
    captcha: {
      enabled: e.CAPTCHA === 'on',
      cost: e.CAPTCHA_COST,
      maxCounter: e.CAPTCHA_MAX_COUNTER,
      expiresMs: e.CAPTCHA_EXPIRES_MINUTES * 60_000,
      afterSignInFailures: e.CAPTCHA_AFTER_SIGN_IN_FAILURES,
    },
    pushLoopbackEndpoints: e.PUSH_LOOPBACK_ENDPOINTS === 'on',
    jobsEnabled: e.JOBS_ENABLED,
    webConcurrency: e.WEB_CONCURRENCY,
    signInIpLimit: e.SIGN_IN_IP_LIMIT,
    cardValidationsPerMinute: e.CARD_VALIDATIONS_PER_MINUTE,
    callerCacheMs: e.CALLER_CACHE_MS,
    figuresCacheMs: e.FIGURES_CACHE_MS,
    signInAddressFailureLimit: e.SIGN_IN_ADDRESS_FAILURE_LIMIT,
    signInAccountFailureLimit: e.SIGN_IN_ACCOUNT_FAILURE_LIMIT,
    signInWindowMs: e.SIGN_IN_WINDOW_MINUTES * 60_000,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : defaultWebDist,
    google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } : undefined,
    pgDumpPath: e.PG_DUMP_PATH,
    mapTiles: { url: e.MAP_TILE_URL, attribution: e.MAP_TILE_ATTRIBUTION },
    payments: {
      provider: e.PAYMENT_PROVIDER,
      asaas: { apiKey: e.ASAAS_API_KEY, baseUrl: e.ASAAS_BASE_URL.replace(/\/$/, ''), platformWalletId: e.ASAAS_PLATFORM_WALLET_ID },
      // The local provider posts its simulated webhooks to ourselves: a fresh secret per start is enough there.
      webhookToken: e.ASAAS_WEBHOOK_TOKEN ?? randomBytes(24).toString('base64url'),
      pixKey: e.PIX_KEY,
    },
  };
}
