import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';

/**
 * Inserts `total` clinics in one statement (generate_series), with unique CNPJs and slugs. Used by tests of large
 * lists and by bench/ to build big data sets quickly.
 */
export async function seedManyClinics(db: Database, total: number, prefix = 'gerada'): Promise<void> {
  await db.execute(sql`
    insert into clinics (name, cnpj, slug, status, city, state, created_at)
    select 'Clínica ' || ${prefix} || ' ' || n,
           lpad((n::bigint + ${Math.floor(Math.random() * 1e6)}::bigint * 1000000)::text, 14, '0'),
           ${prefix} || '-' || n || '-' || ${Math.floor(Math.random() * 1e9)},
           'active', 'São Paulo', 'SP',
           now() - (n || ' minutes')::interval
    from generate_series(1, ${total}) as n
  `);
}
