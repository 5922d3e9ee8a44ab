/**
 * More of the fuzz suite, on demand (issue 21): `npm test` runs 5 generated requests per operation with a fixed seed
 * (a failure there replays exactly); this runs apps/server/test/fuzz.int.test.ts on PGlite with many more and fresh
 * seeds, one round per seed, and prints each seed so a failure can be replayed:
 *
 *   npm run fuzz -w bench                       (3 rounds of 100 generated requests per operation)
 *   npm run fuzz -w bench -- --rounds 10 --runs 200
 *   npm run fuzz -w bench -- --seed 123456      (replays one round)
 *
 * Every fixed hostile value goes to every operation in every round, as in npm test.
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, runs: { type: 'string', default: '100' }, seed: { type: 'string' } } });
const root = path.resolve(import.meta.dirname, '..');
const seeds = values.seed ? [Number(values.seed)] : Array.from({ length: Number(values.rounds) }, () => randomInt(1, 2 ** 31 - 1));
const failed: number[] = [];

for (const seed of seeds) {
  console.log(`fuzz: seed ${seed}, ${values.runs} generated requests per operation`);
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'server-pglite', 'apps/server/test/fuzz.int.test.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_RUNS: values.runs },
  });
  if (run.status !== 0) failed.push(seed);
}

if (failed.length > 0) {
  console.error(`fuzz: failed with seed(s) ${failed.join(', ')}: replay with npm run fuzz -w bench -- --seed ${failed[0]} --runs ${values.runs}`);
  process.exit(1);
}
console.log(`fuzz: ${seeds.length} round(s) passed`);
