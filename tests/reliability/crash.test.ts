// Crash test: bots play through the real server process, which is SIGKILLed at random moments and restarted on the
// same data directory; every acknowledged event must survive exactly once, in order, with SQLite agreeing.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../shared/random.ts';
import { Bot, HttpClient, type BotStats } from '../support/bots.ts';
import { defaultConfig, startServer, type RunningServer } from '../support/server.ts';
import { readLogs, verifyBots, verifyStore } from './verify.ts';

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

const dataDir = mkdtempSync(join(tmpdir(), 'nonolab-crash-'));
let server: RunningServer | null = null;
afterAll(async () => {
  await server?.stop('SIGKILL');
  if (!process.env.NONOLAB_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it(`keeps every acknowledged event of ${BOTS} bots through ${KILLS} SIGKILLs of the server`, async () => {
    const port = await freePort();
    const env = { PORT: String(port), NONOLAB_START_LIMIT: '100000' };
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

    const logs = readLogs(dataDir);
    expect(verifyBots(logs, bots)).toEqual([]);
    expect(verifyStore(dataDir, logs)).toEqual([]);
    for (const bot of bots) {
      const client = logs.get(bot.sessionId)!.records.filter((r) => r.origin === 'client');
      expect(client.length).toBe(bot.events.length);
      expect(bot.ackedSeq).toBe(bot.events.length);
    }
    const log = outputs.join('\n');
    expect(log).not.toMatch(/internal server error|error: /);
    const recovered = log.split('\n').filter((l) => l.startsWith('recovery: '));
    console.log(
      `crash test: ${kills + 1} SIGKILLs, ${stats.acks.length} acknowledged batches, ${stats.failures} failed requests retried, ` +
        `${recovered.length} recovery actions (${recovered.filter((l) => l.includes('torn')).length} torn lines cut, ` +
        `${recovered.filter((l) => l.includes('never reached')).length} unfinished starts removed, ${recovered.filter((l) => l.includes('using the log')).length} SQLite rows corrected)`,
    );
  });
});
