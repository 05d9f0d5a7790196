// Test support: a throwaway PostgreSQL cluster in a temporary directory (Debian's `postgresql` package), one per test
// file that asks for it, with a fresh database per call; both stores side by side for parameterised suites.
//
// initdb and postgres refuse to run as root: as root they run as the `postgres` user (runuser), on a data directory
// it owns. The server listens on a free port of 127.0.0.1 and on a unix socket in the temporary directory, never on
// the machine's default socket; `fsync = off` (a test never survives a power cut; commits are still synchronous, so
// an acknowledged event is committed before its answer, which is what the tests check). vitest's global setup
// (tests/support/postgresSetup.ts) starts one cluster for the whole run, hands it to the test processes through
// NONOLAB_TEST_DATABASE_URL, and stops it (pg_ctl stop -m immediate) and removes its directory at the end.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type StoreKind = 'sqlite' | 'postgres';
/** The stores every parameterised suite runs against. */
export const STORES: readonly StoreKind[] = ['sqlite', 'postgres'];

/** The newest PostgreSQL's binaries (/usr/lib/postgresql/<major>/bin), or null when none is installed. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length > 0 ? join(root, majors[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /** A new empty database on the cluster, and its URL. */
  database(): Promise<string>;
  stop(): void;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, args: string[]): string {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
}

let cluster: PostgresCluster | null = null;
let databases = 0;

/** The run's cluster (NONOLAB_TEST_DATABASE_URL, set by the global setup or by hand). */
export function postgresCluster(): PostgresCluster {
  const given = process.env.NONOLAB_TEST_DATABASE_URL;
  if (!given)
    throw new Error(
      'no PostgreSQL for the tests: NONOLAB_TEST_DATABASE_URL is unset (the global setup sets it when PostgreSQL is installed: apt-get install postgresql, as npm test does (scripts/test-setup.mjs))',
    );
  cluster ??= withDatabases({ url: given, port: Number(new URL(given).port || 5432), dir: '', stop: () => {} });
  return cluster;
}

/** Start a throwaway cluster in a temporary directory (the global setup's; `stop` ends it and removes the directory). */
export async function startCluster(opts: { fsync?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install postgresql, as npm test does (scripts/test-setup.mjs)');
  const dir = mkdtempSync(join(tmpdir(), 'nonolab-pg-'));
  const data = join(dir, 'data');
  if (asRoot) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()));
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${opts.fsync ? '' : '-c fsync=off -c full_page_writes=off '}-c max_connections=300 -c shared_buffers=64MB`;
  run(join(bin, 'pg_ctl'), ['start', '-w', '-t', '60', '-D', data, '-l', join(dir, 'log'), '-o', options]);
  const stop = () => {
    try {
      run(join(bin, 'pg_ctl'), ['stop', '-m', 'immediate', '-D', data]);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return withDatabases({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop });
}

function withDatabases(c: Omit<PostgresCluster, 'database'>): PostgresCluster {
  return {
    ...c,
    async database() {
      const name = `nonolab_${process.pid}_${++databases}`;
      const client = new pg.Client({ connectionString: c.url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      const url = new URL(c.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
  };
}

/** A fresh database for a test server on `kind` (undefined: the embedded SQLite store). */
export async function databaseFor(kind: StoreKind): Promise<string | undefined> {
  return kind === 'postgres' ? postgresCluster().database() : undefined;
}
