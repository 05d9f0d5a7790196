// Concurrency test: 300 simultaneous participants against the real server process, starting and then consenting at
// once (the sequence is leased at consent), take the 120 ordered sequences without sharing one, keep the per-puzzle
// balance at every moment, then follow the configured overflow policy: on SQLite with one process, and on PostgreSQL
// with two server processes (NONOLAB_WORKERS=2) leasing from the one pool.
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HttpClient } from '../support/bots.ts';
import { defaultConfig, startServer, writeConfig, type RunningServer } from '../support/server.ts';
import { readDbLogs, readLogs, verifyDbStore, verifyStore } from './verify.ts';
import pg from 'pg';
import { databaseFor, type StoreKind } from '../support/postgres.ts';
import { event } from '../support/testServer.ts';

const STARTS = 300;
let server: RunningServer | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

interface Lease {
  sequence_id: number;
  round: number;
  puzzle_ids: string;
}

const LEASES_SQL = 'SELECT s.sequence_id, q.round, q.puzzle_ids FROM sessions s JOIN sequences q ON q.id = s.sequence_id ORDER BY q.lease_order';

/** Leases in the order the server made them (`sequences.lease_order`), from the PostgreSQL database. */
async function dbLeasesInOrder(databaseUrl: string): Promise<Lease[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(LEASES_SQL.replace('q.puzzle_ids', 'q.puzzle_ids::text AS puzzle_ids'))).rows as Lease[];
  } finally {
    await client.end();
  }
}

/** Leases in the order the server made them (`sequences.lease_order`). */
function leasesInOrder(dataDir: string): Lease[] {
  const db = new Database(join(dataDir, 'nonolab.sqlite'), { readonly: true });
  try {
    return db
      .prepare('SELECT s.sequence_id, q.round, q.puzzle_ids FROM sessions s JOIN sequences q ON q.id = s.sequence_id ORDER BY q.lease_order')
      .all() as Lease[];
  } finally {
    db.close();
  }
}

/** Largest spread (most- minus least-attempted puzzle) seen after any prefix of the leases of one round. */
function worstSpread(leases: Lease[], puzzles: string[]): number {
  const counts = new Map(puzzles.map((p) => [p, 0]));
  let worst = 0;
  for (const l of leases) {
    for (const p of JSON.parse(l.puzzle_ids) as string[]) counts.set(p, counts.get(p)! + 1);
    const values = [...counts.values()];
    worst = Math.max(worst, Math.max(...values) - Math.min(...values));
  }
  return worst;
}

/** STARTS participants start at once, then all consent at once; each answer of the consent, and the sequence after. */
async function startMany(url: string): Promise<{ status: number; json: any }[]> {
  const http = new HttpClient(url);
  try {
    const started = await Promise.all(Array.from({ length: STARTS }, () => http.call('POST', '/api/sessions', {}, '')));
    expect(started.every((a) => a.status === 201 && a.json.sequence.length === 0)).toBe(true);
    return await Promise.all(
      started.map(async (a) => {
        const cookie = a.setCookie!;
        const id = a.json.session_id as string;
        const at = (seq: number, type: string, payload: unknown) => ({ ...event(id, seq), step: 0, phase: 'consent', type, payload });
        const consent = await http.call('POST', '/api/session/events', { events: [at(1, 'consent', { agreed: true }), at(2, 'step_end', { kind: 'consent', reason: 'done' })] }, cookie);
        if (consent.status !== 200) return consent;
        const state = await http.call('GET', '/api/session', undefined, cookie);
        return { status: consent.status, json: state.json };
      }),
    );
  } finally {
    http.close();
  }
}

const SETUPS: { store: StoreKind; workers: number }[] = [
  { store: 'sqlite', workers: 1 },
  { store: 'postgres', workers: 2 },
];

describe.each(SETUPS)('simultaneous starts on $store with $workers process(es)', ({ store, workers }) => {
  for (const policy of ['refuse', 'new-round'] as const) {
    it(`gives ${STARTS} simultaneous starts 120 distinct balanced sequences, then ${policy === 'refuse' ? 'refuses' : 'opens a new round'}`, async () => {
      const config = defaultConfig();
      config.assignment.when_exhausted = policy;
      const puzzles = config.puzzles.map((p) => p.id);
      const databaseUrl = await databaseFor(store);
      const env: Record<string, string> = { NONOLAB_START_LIMIT: '10000', NONOLAB_WORKERS: String(workers) };
      if (databaseUrl) env.NONOLAB_DATABASE_URL = databaseUrl;
      server = await startServer({ configPath: writeConfig(config), env });
      if (workers > 1) await waitForWorkers(server, workers);
      const answers = await startMany(server.url);
      const ok = answers.filter((a) => a.status === 200);
      const refused = answers.filter((a) => a.status !== 200);
      if (policy === 'refuse') {
        expect(ok).toHaveLength(120);
        expect(refused.every((a) => a.status === 409 && a.json.study_full === true && typeof a.json.error === 'string' && a.json.error.length > 0)).toBe(true);
        expect(refused).toHaveLength(STARTS - 120);
      } else {
        expect(ok).toHaveLength(STARTS);
      }
      expect(new Set(ok.map((a) => a.json.session_id)).size).toBe(ok.length);
      await server.stop();
      const dataDir = server.dataDir;
      server = null;

      const leases = databaseUrl ? await dbLeasesInOrder(databaseUrl) : leasesInOrder(dataDir);
      expect(leases).toHaveLength(ok.length);
      expect(new Set(leases.map((l) => l.sequence_id)).size).toBe(leases.length);
      const round1 = leases.filter((l) => l.round === 1);
      expect(round1).toHaveLength(120);
      // Every one of the 120 ordered sequences once, and the server's sequence matches what each participant got.
      expect(new Set(round1.map((l) => l.puzzle_ids)).size).toBe(120);
      expect(new Set(ok.map((a) => JSON.stringify(a.json.sequence))).size).toBe(120);
      expect(worstSpread(round1, puzzles)).toBeLessThanOrEqual(2);
      if (policy === 'new-round') {
        // 300 = 120 + 120 + 60: every round uses each sequence at most once, full rounds use all 120.
        const rounds = [...new Set(leases.map((l) => l.round))].sort((a, b) => a - b);
        expect(rounds).toEqual([1, 2, 3]);
        for (const r of rounds) {
          const inRound = leases.filter((l) => l.round === r);
          expect(new Set(inRound.map((l) => l.puzzle_ids)).size).toBe(inRound.length);
          expect(inRound.length).toBe(r < 3 ? 120 : STARTS - 240);
          expect(worstSpread(inRound, puzzles)).toBeLessThanOrEqual(2);
        }
        expect(worstSpread(leases, puzzles)).toBeLessThanOrEqual(2);
      }
      if (databaseUrl) expect(await verifyDbStore(databaseUrl, await readDbLogs(databaseUrl))).toEqual([]);
      else expect(verifyStore(dataDir, readLogs(dataDir))).toEqual([]);
      rmSync(dataDir, { recursive: true, force: true });
    });
  }
});

/** Every worker of a NONOLAB_WORKERS server is listening (each prints its address once). */
async function waitForWorkers(s: RunningServer, n: number): Promise<void> {
  const started = Date.now();
  while ((s.output().match(/ at https?:\/\/localhost:\d+\//g) ?? []).length < n) {
    if (Date.now() - started > 30_000) throw new Error(`${n} workers did not start:\n${s.output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
