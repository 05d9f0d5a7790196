// Crash test: bots play through the real server process, which is SIGKILLed at random moments and restarted on the
// same data directory (or database); every acknowledged event must survive exactly once, in order, with the rows
// agreeing, on both stores. On PostgreSQL the storage can crash on its own as well: a second test kills the database
// (immediate shutdown: every PostgreSQL process dies, the WAL is replayed at the next start) under the bots.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../shared/random.ts';
import { Bot, HttpClient, type BotStats } from '../support/bots.ts';
import { defaultConfig, startServer, type RunningServer } from '../support/server.ts';
import { STORES, databaseFor, startCluster, type PostgresCluster } from '../support/postgres.ts';
import { readDbLogs, readLogs, verifyBots, verifyDbStore, verifyStore } from './verify.ts';
import { crashCluster } from './faults.ts';

/** CI size; raise with NONOLAB_CRASH_BOTS / NONOLAB_CRASH_KILLS for a longer run. */
const BOTS = Number(process.env.NONOLAB_CRASH_BOTS ?? 24);
const KILLS = Number(process.env.NONOLAB_CRASH_KILLS ?? 4);
const SEED = Number(process.env.NONOLAB_CRASH_SEED ?? 8);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const dataDirs: string[] = [];
let server: RunningServer | null = null;
let cluster: PostgresCluster | null = null;
afterEach(async () => {
  await server?.stop('SIGKILL');
  server = null;
  cluster?.stop();
  cluster = null;
});
afterAll(() => {
  if (!process.env.NONOLAB_KEEP_DATA) for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(STORES)('crash safety on %s', (store) => {
  it(`keeps every acknowledged event of ${BOTS} bots through ${KILLS} SIGKILLs of the server`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nonolab-crash-'));
    dataDirs.push(dataDir);
    const databaseUrl = await databaseFor(store);
    const port = await freePort();
    const env: Record<string, string> = { PORT: String(port), NONOLAB_START_LIMIT: '100000', ...(databaseUrl ? { NONOLAB_DATABASE_URL: databaseUrl } : {}) };
    const boot = async () => (server = await startServer({ dataDir, env }));
    await boot();
    const outputs: string[] = [];
    const config = defaultConfig();
    const http = new HttpClient(`http://127.0.0.1:${port}`, { timeoutMs: 5_000 });
    const stats: BotStats = { acks: [], failures: 0 };
    const bots = Array.from(
      { length: BOTS },
      (_, i) => new Bot({ http, config, seed: SEED * 1000 + i, thinkMs: 12, burst: 3, noiseMoves: 6, backoffMs: 50, maxBackoffMs: 800, stats }),
    );
    const rng = createRng(SEED);
    let playing = true;
    const plays = Promise.all(bots.map((b) => b.play())).finally(() => (playing = false));

    // Kill at random moments while the bots play; some restarts come at once, some after a pause.
    let kills = 0;
    const acksAtKill: number[] = [];
    while (kills < KILLS && playing) {
      // Kill after a random amount of acknowledged progress since the last restart (not after a fixed time, so the
      // kills land among the bots' requests on a fast machine and a slow one alike), at a random instant.
      const since = stats.acks.length;
      const want = 5 + rng.int(40);
      while (playing && stats.acks.length - since < want) await sleep(5);
      await sleep(rng.int(60));
      if (!playing) break;
      acksAtKill.push(stats.acks.length);
      await server!.stop('SIGKILL');
      outputs.push(server!.output());
      kills++;
      await sleep(rng.int(400));
      await boot();
    }
    await plays;
    outputs.push(server!.output());
    // One more crash after the last acknowledgement, then a clean restart: recovery must leave everything in place.
    await server!.stop('SIGKILL');
    await boot();
    outputs.push(server!.output());
    await server!.stop('SIGTERM');
    server = null;
    http.close();

    expect(kills).toBe(KILLS);
    // The kills really hit a server under load: acknowledgements happened between them, and bots had to retry.
    expect(stats.failures).toBeGreaterThan(0);
    expect(stats.acks.length).toBeGreaterThan(acksAtKill.at(-1) ?? 0);
    expect(bots.every((b) => b.completionCode === config.completion.code)).toBe(true);

    const logs = databaseUrl ? await readDbLogs(databaseUrl) : readLogs(dataDir);
    expect(verifyBots(logs, bots)).toEqual([]);
    expect(databaseUrl ? await verifyDbStore(databaseUrl, logs) : verifyStore(dataDir, logs)).toEqual([]);
    for (const bot of bots) {
      const client = logs.get(bot.sessionId)!.records.filter((r) => r.origin === 'client');
      expect(client.length).toBe(bot.events.length);
      expect(bot.ackedSeq).toBe(bot.events.length);
    }
    const log = outputs.join('\n');
    expect(log).not.toMatch(/internal server error|error: /);
    const recovered = log.split('\n').filter((l) => l.startsWith('recovery: '));
    console.log(
      `crash test (${store}): ${kills + 1} SIGKILLs, ${stats.acks.length} acknowledged batches, ${stats.failures} failed requests retried, ` +
        `${recovered.length} recovery actions (${recovered.filter((l) => l.includes('torn')).length} torn lines cut, ` +
        `${recovered.filter((l) => l.includes('never reached')).length} unfinished starts removed, ${recovered.filter((l) => l.includes('using the log')).length} SQLite rows corrected)`,
    );
  });
});

// PostgreSQL only: the database is a process of its own that can crash while the server lives (the embedded store's
// storage is in the server's process: its crash is the test above).
describe('crash safety of PostgreSQL itself', () => {
  it(`keeps every acknowledged event of ${BOTS} bots through ${KILLS} immediate shutdowns of PostgreSQL; the server process stays up`, async () => {
    cluster = await startCluster({ fsync: true });
    const databaseUrl = await cluster.database();
    const dataDir = mkdtempSync(join(tmpdir(), 'nonolab-crash-'));
    dataDirs.push(dataDir);
    server = await startServer({ dataDir, env: { NONOLAB_DATABASE_URL: databaseUrl, NONOLAB_START_LIMIT: '100000' } });
    const config = defaultConfig();
    const http = new HttpClient(server.url, { timeoutMs: 5_000 });
    const stats: BotStats = { acks: [], failures: 0 };
    const bots = Array.from(
      { length: BOTS },
      (_, i) => new Bot({ http, config, seed: SEED * 1000 + 500 + i, thinkMs: 12, burst: 3, noiseMoves: 6, backoffMs: 50, maxBackoffMs: 800, stats }),
    );
    const rng = createRng(SEED + 1);
    let playing = true;
    const plays = Promise.all(bots.map((b) => b.play())).finally(() => (playing = false));
    let crashes = 0;
    const acksAtCrash: number[] = [];
    while (crashes < KILLS && playing) {
      const since = stats.acks.length;
      const want = 5 + rng.int(40);
      while (playing && stats.acks.length - since < want) await sleep(5);
      await sleep(rng.int(60));
      if (!playing) break;
      acksAtCrash.push(stats.acks.length);
      await crashCluster(cluster, rng.int(400));
      crashes++;
    }
    await plays;
    http.close();
    const output = server.output();
    await server.stop('SIGTERM');
    server = null;

    expect(crashes).toBe(KILLS);
    expect(stats.failures).toBeGreaterThan(0);
    expect(stats.acks.length).toBeGreaterThan(acksAtCrash.at(-1) ?? 0);
    expect(bots.every((b) => b.completionCode === config.completion.code)).toBe(true);
    const logs = await readDbLogs(databaseUrl);
    expect(verifyBots(logs, bots)).toEqual([]);
    expect(await verifyDbStore(databaseUrl, logs)).toEqual([]);
    for (const bot of bots) {
      expect(logs.get(bot.sessionId)!.records.filter((r) => r.origin === 'client')).toHaveLength(bot.events.length);
      expect(bot.ackedSeq).toBe(bot.events.length);
    }
    // The server process lived through every crash of its database (one start-up line).
    expect(output.match(/at https?:\/\/localhost:\d+\//g)).toHaveLength(1);
    console.log(
      `crash test (PostgreSQL crashed): ${crashes} immediate shutdowns, ${stats.acks.length} acknowledged batches, ${stats.failures} failed requests retried, ` +
        `${output.split('\n').filter((l) => l.includes('the database is unreachable')).length} answered 503 because the database was down`,
    );
    // A request that met the database down was answered 503 (and retried), never 500.
    expect(output).not.toMatch(/internal server error|error: /);
  });
});
