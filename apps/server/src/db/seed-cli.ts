import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { resolveAuthSecret } from '../lib/secret.ts';
import { openDatabase } from './client.ts';
import { seedDatabase } from './seed.ts';

/** `npm run seed`: migrates and seeds the configured database, then exits. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await database.migrate();
    const authSecret = await resolveAuthSecret({ authSecret: config.authSecret, dataDir: config.dataDir });
    const app = await buildApp({ config, database, authSecret, logger: false });
    const { report } = await seedDatabase({ db: database.db, auth: app.auth, cardBox: app.cardBox, withDemo: config.seedDemo });
    console.log(report.length > 0 ? report.join('\n') : 'Nada a semear: o banco já tem os dados.');
    await app.close();
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
