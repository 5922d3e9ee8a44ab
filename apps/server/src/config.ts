import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
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
  TRUST_PROXY: booleanFromEnv,
  /** Sign-in attempts one IP may make per window, and failed attempts one account may take per window. */
  SIGN_IN_IP_LIMIT: z.coerce.number().int().positive().default(30),
  SIGN_IN_ACCOUNT_FAILURE_LIMIT: z.coerce.number().int().positive().default(10),
  SIGN_IN_WINDOW_MINUTES: z.coerce.number().int().positive().default(15),
  WEB_DIST_DIR: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** The pg_dump that backs up a PostgreSQL database: its major version must be at least the server's. */
  PG_DUMP_PATH: z.string().min(1).default('pg_dump'),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  mainDomain: string;
  authSecret: string | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  logLevel: string;
  trustProxy: boolean;
  signInIpLimit: number;
  signInAccountFailureLimit: number;
  signInWindowMs: number;
  webDistDir: string;
  /** 'Login com Google' needs both; the admin toggle has no effect without them. */
  google: { clientId: string; clientSecret: string } | undefined;
  /** The pg_dump for 'Fazer Backup Agora' and the daily backup on PostgreSQL. */
  pgDumpPath: string;
};

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

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
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    mainDomain: e.MAIN_DOMAIN,
    authSecret: e.AUTH_SECRET,
    // The demo accounts are for the embedded default only, unless asked for (issue: demo data).
    seedDemo: e.SEED_DEMO || e.DATABASE_URL === undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    signInIpLimit: e.SIGN_IN_IP_LIMIT,
    signInAccountFailureLimit: e.SIGN_IN_ACCOUNT_FAILURE_LIMIT,
    signInWindowMs: e.SIGN_IN_WINDOW_MINUTES * 60_000,
    webDistDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : defaultWebDist,
    google: e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET } : undefined,
    pgDumpPath: e.PG_DUMP_PATH,
  };
}
