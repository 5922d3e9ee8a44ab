import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, stopServer, type ServerProcess } from './server-process.ts';

/**
 * A throw-away PostgreSQL cluster for the process tests (*.postgres.test.ts) that stop, restart or lock the
 * database: they must never disturb the shared test server. Its server logs in as a role that owns the tables but is
 * not a superuser, as a deployment does.
 */

const execFileAsync = promisify(execFile);

/** The login role and database the server under test uses (`appDatabaseUrl`). */
export const APP_ROLE = 'carteirinha_app';
export const APP_DATABASE = 'carteirinha';

/** The newest server binaries of Debian's postgresql package. CI installs it; without it these tests must fail. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).filter((version) => fs.existsSync(path.join(root, version, 'bin', 'initdb'))) : [];
  const newest = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (!newest) throw new Error('PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin: install the postgresql package');
  return path.join(root, newest, 'bin');
}

/** PostgreSQL refuses to run as root: its tools run as the postgres user when this process is root (as in CI). */
async function runAsPostgres(program: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  await execFileAsync(asRoot ? 'runuser' : program, asRoot ? ['-u', 'postgres', '--', program, ...args] : args, { timeout: 120_000 });
}

/** pg_isready until the server takes connections (30 s at most). */
async function waitUntilReady(bin: string, port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await execFileAsync(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)], { timeout: 5_000 });
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on port ${port} did not start`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export type Cluster = {
  port: number;
  dir: string;
  /** pg_ctl on this cluster's data folder (`start`, `-m fast stop`, `-m fast restart`…), waiting for it to finish. */
  pgCtl: (...args: string[]) => Promise<void>;
  superuserUrl: (database: string) => string;
  /** The server's connection: the non-superuser owner of `APP_DATABASE` (made by `createAppDatabase`). */
  appDatabaseUrl: string;
  /** Stops the cluster at once and removes its folder. */
  destroy: () => Promise<void>;
};

/** A temporary folder named after `prefix`, the postgres user's. */
async function clusterFolder(prefix: string): Promise<string> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), prefix));
  if (process.getuid?.() === 0) await execFileAsync('chown', ['postgres:postgres', dir]);
  return dir;
}

/** pg_ctl start on the cluster in `data`, on a free loopback port; stopped and removed by `destroy`. */
async function runCluster(bin: string, dir: string, data: string): Promise<Cluster> {
  const port = await freePort();
  const options = `-c listen_addresses=127.0.0.1 -c port=${port} -c unix_socket_directories=${dir} -c fsync=off`;
  const pgCtlNow = (wait: '-w' | '-W', args: string[]) => runAsPostgres(path.join(bin, 'pg_ctl'), ['-D', data, '-l', path.join(dir, 'postgres.log'), wait, '-o', options, ...args]);
  // pg_ctl's own wait for a start compares the pid file's start time with its own clock, which never agree under the
  // clock sweep's faketime (npm run test:clock): a start or restart is waited for by asking the server itself.
  const pgCtl = async (...args: string[]) => {
    const starts = args.includes('start') || args.includes('restart');
    await pgCtlNow(starts ? '-W' : '-w', args);
    if (starts) await waitUntilReady(bin, port);
  };
  await pgCtl('start');
  return {
    port,
    dir,
    pgCtl,
    superuserUrl: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    appDatabaseUrl: `postgres://${APP_ROLE}@127.0.0.1:${port}/${APP_DATABASE}`,
    destroy: async () => {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** initdb + pg_ctl start on a free loopback port, in a temporary folder named after `prefix`. */
export async function startCluster(prefix = 'carteirinha-pg-'): Promise<Cluster> {
  const bin = postgresBinDir();
  const dir = await clusterFolder(prefix);
  const data = path.join(dir, 'data');
  await runAsPostgres(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8']);
  return runCluster(bin, dir, data);
}

/**
 * A streaming replica of `primary` (pg_basebackup -R: a hot standby that follows the primary's WAL as it is written),
 * on a loopback port of its own: a deployment's DATABASE_REPLICA_URL.
 */
export async function startReplica(primary: Cluster, prefix = 'carteirinha-replica-'): Promise<Cluster> {
  const bin = postgresBinDir();
  const dir = await clusterFolder(prefix);
  const data = path.join(dir, 'data');
  await runAsPostgres(path.join(bin, 'pg_basebackup'), ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
  return runCluster(bin, dir, data);
}

/** Debian's PgBouncer (1.18 on bookworm); CI installs the package beside PostgreSQL's. */
const PGBOUNCER = '/usr/sbin/pgbouncer';

export type Bouncer = {
  /** The app's connection through the pooler (the same role and database as `appDatabaseUrl`). */
  appDatabaseUrl: string;
  /** Server connections PgBouncer keeps per user and database: the most the database ever sees from it. */
  poolSize: number;
  stop: () => Promise<void>;
};

/**
 * PgBouncer in transaction mode in front of `cluster`'s app database (or `target`'s database and role: the bench's
 * generated data), on a free loopback port, as the postgres user (it refuses to run as root). Trust authentication
 * on loopback, like the test clusters.
 */
export async function startPgBouncer(
  cluster: Pick<Cluster, 'port'>,
  poolSize = 3,
  target: { database: string; role: string } = { database: APP_DATABASE, role: APP_ROLE },
): Promise<Bouncer> {
  const dir = await clusterFolder('carteirinha-pgbouncer-');
  const port = await freePort();
  const ini = path.join(dir, 'pgbouncer.ini');
  await fsp.writeFile(path.join(dir, 'userlist.txt'), `"${target.role}" ""\n"postgres" ""\n`);
  await fsp.writeFile(
    ini,
    [
      '[databases]',
      `${target.database} = host=127.0.0.1 port=${cluster.port} dbname=${target.database}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  if (process.getuid?.() === 0) await execFileAsync('chown', ['-R', 'postgres:postgres', dir]);
  const asRoot = process.getuid?.() === 0;
  const child = spawn(asRoot ? 'runuser' : PGBOUNCER, asRoot ? ['-u', 'postgres', '--', PGBOUNCER, ini] : [ini], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitUntilReady(postgresBinDir(), port);
  return {
    appDatabaseUrl: `postgres://${target.role}@127.0.0.1:${port}/${target.database}`,
    poolSize,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await fsp.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs `work` on a superuser connection to `database`, closed afterwards. */
export async function asSuperuser<T>(cluster: Cluster, database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: cluster.superuserUrl(database) });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The deployment's shape: a login role that is neither superuser nor BYPASSRLS owns the server's database. */
export async function createAppDatabase(cluster: Cluster): Promise<void> {
  await asSuperuser(cluster, 'postgres', async (client) => {
    await client.query(`CREATE ROLE ${APP_ROLE} LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS`);
    await client.query(`CREATE DATABASE ${APP_DATABASE} OWNER ${APP_ROLE}`);
  });
}

/** Polls until `check` holds (every `intervalMs`, at most `attempts` times); answers whether it did. */
export async function eventually(check: () => Promise<boolean>, attempts = 120, intervalMs = 250): Promise<boolean> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}

/**
 * After a process test: the server stopped (killed if it will not stop within 15 s, as after a fault it may not), the
 * cluster destroyed and the server's data folder removed. Each part may be missing when beforeAll failed half-way.
 */
export async function tearDownProcessTest(parts: { server?: ServerProcess; cluster?: Cluster; dataDir?: string }): Promise<void> {
  if (parts.server) await Promise.race([stopServer(parts.server), new Promise((resolve) => setTimeout(resolve, 15_000))]);
  parts.server?.child.kill('SIGKILL');
  await parts.cluster?.destroy();
  if (parts.dataDir) await fsp.rm(parts.dataDir, { recursive: true, force: true });
}
