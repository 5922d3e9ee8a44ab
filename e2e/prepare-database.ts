import { makeSignature } from 'better-auth/crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '@carteirinha/shared/constants';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase, type Database } from '../apps/server/src/db/client.ts';
import { PRIVATE_UMASK } from '../apps/server/src/db/data-dir.ts';
import { cards, users } from '../apps/server/src/db/schema.ts';
import { seedDatabase } from '../apps/server/src/db/seed.ts';
import type { SecretBox } from '../apps/server/src/lib/secret-box.ts';
import { cardTokenAt } from '../apps/server/src/modules/cards/card-token.ts';
import { resolveAuthSecret } from '../apps/server/src/lib/secret.ts';
import { SESSIONS_PER_ACCOUNT, runDir, writePool, type DemoAccount, type SessionCookie, type SessionPool } from './session-pool';

/**
 * Run by global-setup.ts before the server starts, with the server's runtime (`node --import tsx`) and environment:
 * migrates and seeds the database as the server's own start does (seed-cli.ts), then makes the pool of demo sessions
 * (session-pool.ts). The embedded database takes one process at a time: this one closes it before the server opens it.
 */

type Auth = Awaited<ReturnType<typeof buildApp>>['auth'];

/**
 * One real sign-in per demo account, through the app: 'Último Login' in /admin/usuarios then reads a date, as it does
 * for anyone with a session made by signing in.
 */
async function signInOnce(app: Awaited<ReturnType<typeof buildApp>>, publicUrl: string, email: string): Promise<void> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { host: new URL(publicUrl).host, origin: publicUrl },
    payload: { email, password: DEMO_PASSWORD },
  });
  if (response.statusCode !== 200) throw new Error(`the demo account ${email} could not sign in (${response.statusCode}): ${response.body}`);
}

/**
 * `count` sessions of the account, made as better-auth's own test helpers make them (its test-utils plugin, `login`:
 * the internal adapter's createSession, so the session hooks and the defaults of our additional fields apply, as at a
 * sign-in), each with its cookie signed with the server's secret under better-auth's own cookie name and attributes.
 */
async function sessionsOf(auth: Auth, email: string, count: number): Promise<SessionCookie[]> {
  const context = await auth.$context;
  const found = await context.internalAdapter.findUserByEmail(email);
  if (!found) throw new Error(`no demo account ${email}: was the demo seed left out (SEED_DEMO)?`);
  const { name, attributes } = context.authCookies.sessionToken;
  const sessions: SessionCookie[] = [];
  for (let made = 0; made < count; made += 1) {
    const session = await context.internalAdapter.createSession(found.user.id, false, {}, true);
    sessions.push({
      name,
      value: `${session.token}.${await makeSignature(session.token, context.secret)}`,
      httpOnly: attributes.httpOnly ?? true,
      secure: attributes.secure ?? false,
      sameSite: sameSiteOf(attributes.sameSite),
      expires: Math.floor(session.expiresAt.getTime() / 1000),
    });
  }
  return sessions;
}

/** How long before the run the expired token was on the card's screen: well past the server's window of one step. */
const EXPIRED_TOKEN_AGE_MS = 5 * 60_000;

/** The demo patient's own card token as it was shown EXPIRED_TOKEN_AGE_MS ago, from the card's real secret. */
async function expiredPatientCardToken(db: Database, box: SecretBox, now: Date): Promise<string> {
  const [card] = await db
    .select({ number: cards.number, secretEncrypted: cards.secretEncrypted })
    .from(cards)
    .innerJoin(users, eq(users.id, cards.holderUserId))
    .where(and(eq(users.email, DEMO_ACCOUNTS.patient), isNull(cards.dependentId), isNull(cards.revokedAt)));
  if (!card) throw new Error('the demo patient has no card: was the demo seed left out (SEED_DEMO)?');
  return cardTokenAt({ number: card.number, secretHex: box.open(card.secretEncrypted) }, new Date(now.getTime() - EXPIRED_TOKEN_AGE_MS)).token;
}

/** The cookie's SameSite as a browser context takes it (better-auth writes it in lower case; Lax by default). */
function sameSiteOf(value: unknown): SessionCookie['sameSite'] {
  if (typeof value !== 'string') return 'Lax';
  switch (value.toLowerCase()) {
    case 'strict':
      return 'Strict';
    case 'none':
      return 'None';
    default:
      return 'Lax';
  }
}

async function main(): Promise<void> {
  process.umask(PRIVATE_UMASK);
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const authSecret = await resolveAuthSecret({ authSecret: config.authSecret, dataDir: config.dataDir });
    const app = await buildApp({ config, database, authSecret, logger: false });
    try {
      await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: config.seedDemo });
      const createdAt = new Date();
      const sessionsFor = async (account: DemoAccount): Promise<SessionCookie[]> => {
        await signInOnce(app, config.publicUrl, DEMO_ACCOUNTS[account]);
        return sessionsOf(app.auth, DEMO_ACCOUNTS[account], SESSIONS_PER_ACCOUNT[account]);
      };
      const sessions: SessionPool['sessions'] = {
        admin: await sessionsFor('admin'),
        clinicAdmin: await sessionsFor('clinicAdmin'),
        clinicStaff: await sessionsFor('clinicStaff'),
        patient: await sessionsFor('patient'),
      };
      const { sessionTimeoutMinutes } = await app.settings.get();
      writePool(runDir(), {
        createdAt: createdAt.toISOString(),
        staffIdleMinutes: sessionTimeoutMinutes,
        sessions,
        expiredPatientCardToken: await expiredPatientCardToken(database.db, app.cardBox, createdAt),
      });
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
