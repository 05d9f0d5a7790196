// vitest global setup: one throwaway PostgreSQL cluster for the run (tests/support/postgres.ts), when PostgreSQL is
// installed and NONOLAB_TEST_DATABASE_URL does not already name a server; stopped and removed at the end.
import { postgresBinDir, startCluster, type PostgresCluster } from './postgres.ts';

let started: PostgresCluster | null = null;

export async function setup(): Promise<void> {
  if (process.env.NONOLAB_TEST_DATABASE_URL || !postgresBinDir()) return;
  started = await startCluster();
  process.env.NONOLAB_TEST_DATABASE_URL = started.url;
}

export function teardown(): void {
  started?.stop();
  started = null;
}
