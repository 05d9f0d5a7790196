// Start-up recovery cases a crash can leave behind, made deterministically on both stores: a start or a completion cut
// between its rows and its record, a completion or a batch cut after it was made durable but before the answer, and a
// batch cut in its middle (a torn chunk in the NDJSON file; on PostgreSQL a transaction whose connection dropped
// mid-insert); and completions of one session racing (on PostgreSQL in two server processes).
// A crash point's throw stands for the process dying there; on PostgreSQL the dying process's connections are
// dropped first, so PostgreSQL aborts whatever transaction it had open, as it would for a SIGKILLed process.
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, startTestServer, type TestServer } from '../support/testServer.ts';
import { STORES } from '../support/postgres.ts';
import { readDbLogs, readLogs, verifyDbStore, verifyStore } from './verify.ts';
import { clearTrigger, dropConnections, eventsTrigger, loggedSeqs, loggedTypes, sql, tracesOf } from './faults.ts';
import { defaultConfig, writeConfig } from '../support/server.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

class Crash extends Error {}

/** The store's own consistency check (rows against logs), after the server has stopped. */
async function verified(at: { dataDir: string; databaseUrl?: string }): Promise<string[]> {
  return at.databaseUrl ? verifyDbStore(at.databaseUrl, await readDbLogs(at.databaseUrl)) : verifyStore(at.dataDir, readLogs(at.dataDir));
}

describe.each(STORES)('start-up recovery on %s', (store) => {
  /** A server that dies (once) at crash point `point` when `armed`; `restart` starts a new one on the same data. */
  async function crashingServer(point: string) {
    const state = { armed: false, crashed: 0 };
    const crashPoint = async (at: string) => {
      if (!state.armed || at !== point) return;
      state.armed = false;
      state.crashed++;
      if (server?.databaseUrl) expect(await dropConnections(server.databaseUrl)).toBeGreaterThan(0);
      throw new Crash(at);
    };
    server = await startTestServer({ store, crashPoint });
    const at = { dataDir: server.dataDir, databaseUrl: server.databaseUrl };
    const restart = async (logs: string[] = []) => {
      await server!.close();
      server = await startTestServer({ dataDir: at.dataDir, databaseUrl: at.databaseUrl, logger: (m) => logs.push(m) });
      return server;
    };
    return { state, at, restart };
  }

  it('leaves nothing of a start cut between its row and its session_start record, and its sequence in the pool', async () => {
    const { state, at, restart } = await crashingServer('start:row');
    const kept = new Participant(server!.url);
    const keptSession = (await kept.call('POST', '/api/sessions', {})).json;
    const keptId = keptSession.session_id;
    await playSteps(kept, keptSession, defaultConfig(), 1); // consented: holds a sequence
    state.armed = true;
    const lost = await new Participant(server!.url).call('POST', '/api/sessions', {});
    expect(state.crashed).toBe(1);
    expect(lost.status).toBe(500); // the process died there: no token went out
    const logs: string[] = [];
    await restart(logs);
    const s = server!.nonolab;
    expect((await s.store.sessions()).map((r) => r.id)).toEqual([keptId]);
    expect((await s.log.sessionIds()).slice().sort()).toEqual([keptId]);
    expect((await s.store.allSequences()).filter((q) => q.status !== 'free').map((q) => q.session_id)).toEqual([keptId]);
    // SQLite + NDJSON: the row was committed and start-up removes it; PostgreSQL: row and record were one transaction,
    // which the dropped connection aborted, so there is nothing to remove.
    if (store === 'sqlite') expect(logs.join('\n')).toMatch(/its start never reached the log/);
    else expect(logs.join('\n')).not.toMatch(/start never reached/);
    const back = new Participant(server!.url);
    back.cookie = kept.cookie;
    expect((await back.call('GET', '/api/session')).json.session_id).toBe(keptId);
    await server!.close();
    server = null;
    expect(await verified(at)).toEqual([]);
  });

  it('makes a completion cut between its rows and its session_complete record active again, and the retry completes it once', async () => {
    const { state, at, restart } = await crashingServer('complete:status');
    const config = defaultConfig();
    const p = new Participant(server!.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, config, 11);
    state.armed = true;
    expect((await p.call('POST', '/api/session/complete', { last_seq: last })).status).toBe(500);
    expect(state.crashed).toBe(1);
    const logs: string[] = [];
    await restart(logs);
    const st = server!.nonolab.store;
    expect((await st.session(s.session_id))!.status).toBe('active');
    expect(await st.completionOf(s.session_id)).toBeUndefined(); // the stored code goes with the status
    expect((await st.allSequences()).find((q) => q.session_id === s.session_id)!.status).toBe('leased');
    if (store === 'sqlite') expect(logs.join('\n')).toMatch(/completion never reached the log/);
    const back = new Participant(server!.url);
    back.cookie = p.cookie;
    const done = await back.call('POST', '/api/session/complete', { last_seq: last });
    expect(done.status).toBe(200);
    expect(done.json.code).toBe(config.completion.code);
    expect((await st.session(s.session_id))!.status).toBe('complete');
    expect((await st.completionOf(s.session_id))?.code).toBe(config.completion.code);
    expect((await loggedTypes(server!, s.session_id)).filter((t) => t === 'session_complete')).toHaveLength(1);
    await server!.close();
    server = null;
    expect(await verified(at)).toEqual([]);
  });

  it('keeps a completion cut after its record but before the answer, and the retry gets the same code once', async () => {
    const { state, at, restart } = await crashingServer('complete:recorded');
    const config = defaultConfig();
    const p = new Participant(server!.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, config, 11);
    state.armed = true;
    expect((await p.call('POST', '/api/session/complete', { last_seq: last })).status).toBe(500);
    expect(state.crashed).toBe(1);
    await restart();
    const st = server!.nonolab.store;
    expect((await st.session(s.session_id))!.status).toBe('complete');
    const back = new Participant(server!.url);
    back.cookie = p.cookie;
    const done = await back.call('POST', '/api/session/complete', { last_seq: last });
    expect(done.json.code).toBe(config.completion.code);
    expect((await st.completionOf(s.session_id))?.code).toBe(config.completion.code);
    expect((await st.allSequences()).find((q) => q.session_id === s.session_id)!.status).toBe('used');
    expect((await loggedTypes(server!, s.session_id)).filter((t) => t === 'session_complete')).toHaveLength(1);
    await server!.close();
    server = null;
    expect(await verified(at)).toEqual([]);
  });

  it('keeps a batch cut after it was made durable but before the answer, and drops the resent events as held', async () => {
    const { state, at, restart } = await crashingServer('events:written');
    const p = new Participant(server!.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1)] })).json.acked_seq).toBe(1);
    state.armed = true;
    // Written and committed (fsync'd), then the process dies: the client never got the answer.
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 2), event(id, 3)] })).status).toBe(500);
    expect(state.crashed).toBe(1);
    await restart();
    const back = new Participant(server!.url);
    back.cookie = p.cookie;
    expect((await back.call('GET', '/api/session')).json.acked_seq).toBe(3);
    // The client resends from its last acknowledged seq (1): 2 and 3 are dropped as held, 4 is taken.
    expect((await back.call('POST', '/api/session/events', { events: [event(id, 2), event(id, 3), event(id, 4)] })).json.acked_seq).toBe(4);
    expect(await loggedSeqs(server!, id)).toEqual([1, 2, 3, 4]);
    await server!.close();
    server = null;
    expect(await verified(at)).toEqual([]);
  });

  it('hands out one code and writes one session_complete record when completions of one session race (on PostgreSQL through two servers)', async () => {
    const config = defaultConfig();
    config.completion = { ...config.completion, code_mode: 'per_participant', code_prefix: 'R-' } as typeof config.completion;
    const configPath = writeConfig(config);
    server = await startTestServer({ store, configPath });
    // PostgreSQL: a second server process on the same database (as behind a load balancer); the file store has one.
    const other = server.databaseUrl ? await startTestServer({ configPath, databaseUrl: server.databaseUrl }) : null;
    try {
      const p = new Participant(server.url);
      const s = (await p.call('POST', '/api/sessions', {})).json;
      const last = await playSteps(p, s, config, 11);
      const twin = new Participant(other?.url ?? server.url);
      twin.cookie = p.cookie;
      const answers = await Promise.all([p, twin, p, twin].map((who) => who.call('POST', '/api/session/complete', { last_seq: last })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      const codes = new Set(answers.map((a) => a.json.code));
      expect(codes.size).toBe(1);
      expect([...codes][0]).toMatch(/^R-/);
      expect((await server.nonolab.store.completionOf(s.session_id))?.code).toBe([...codes][0]);
      expect((await loggedTypes(server, s.session_id)).filter((t) => t === 'session_complete')).toHaveLength(1);
    } finally {
      await other?.close();
    }
  });

  it('keeps only whole records of a batch a crash cut in its middle, and takes the retry once', async () => {
    server = await startTestServer({ store });
    const at = { dataDir: server.dataDir, databaseUrl: server.databaseUrl };
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2)] })).json.acked_seq).toBe(2);
    let survived: number;
    if (store === 'sqlite') {
      await server.close();
      // Seqs 3 and 4 were one chunk; the kill left seq 3 whole and half of seq 4.
      const line = (seq: number) => JSON.stringify({ ...event(id, seq), origin: 'client', t_server: 1, config_hash: 'x', app_version: 'x' });
      appendFileSync(join(at.dataDir, 'sessions', `${id}.ndjson`), `${line(3)}\n${line(4).slice(0, 40)}`);
      survived = 3;
    } else {
      // Seqs 3 and 4 were one batch: seq 3's row is inserted, the transaction is inside seq 4's insert when the
      // process dies (its connection drops). PostgreSQL aborts the transaction: nothing of the batch stays.
      await eventsTrigger(at.databaseUrl!, id, 4, 'sleep');
      const cut = p.call('POST', '/api/session/events', { events: [event(id, 3), event(id, 4)] });
      for (;;) {
        const asleep = await sql(at.databaseUrl!, "SELECT pid FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = current_database()");
        if (asleep.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(await dropConnections(at.databaseUrl!)).toBeGreaterThan(0);
      expect((await cut).status).toBe(503); // never acknowledged
      await clearTrigger(at.databaseUrl!);
      await server.close();
      survived = 2;
    }
    server = await startTestServer({ dataDir: at.dataDir, databaseUrl: at.databaseUrl });
    expect(await loggedSeqs(server, id)).toEqual([1, 2, 3].slice(0, survived));
    const again = new Participant(server.url);
    again.cookie = p.cookie;
    expect((await again.call('GET', '/api/session')).json.acked_seq).toBe(survived);
    const retry = await again.call('POST', '/api/session/events', { events: [event(id, 3), event(id, 4), event(id, 5)] });
    expect(retry.json.acked_seq).toBe(5);
    expect(await loggedSeqs(server, id)).toEqual([1, 2, 3, 4, 5]);
    await server.close();
    server = null;
    expect(await verified(at)).toEqual([]);
  });
});

// The embedded store only: an empty or missing NDJSON file is damage to the file store's own files (PostgreSQL has no
// file per session; its rows and records commit together).
describe('start-up recovery of the file store', () => {
  it('removes a session whose log file is missing or empty, and gives its sequence back', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const kept = new Participant(server.url);
    const keptSession = (await kept.call('POST', '/api/sessions', {})).json;
    const keptId = keptSession.session_id;
    await playSteps(kept, keptSession, defaultConfig(), 1);
    const lost = (await new Participant(server.url).call('POST', '/api/sessions', {})).json.session_id;
    await server.close();
    rmSync(join(dataDir, 'sessions', `${lost}.ndjson`));
    server = await startTestServer({ dataDir });
    expect(await server.nonolab.store.session(lost)).toBeUndefined();
    expect(await tracesOf(server, lost)).toEqual([]);
    await server.close();
    writeFileSync(join(dataDir, 'sessions', `${keptId}.ndjson`), '');
    server = await startTestServer({ dataDir });
    expect(await server.nonolab.store.sessions()).toEqual([]);
    expect((await server.nonolab.store.allSequences()).filter((q) => q.status !== 'free')).toEqual([]);
    await server.close();
    server = null;
    expect(verifyStore(dataDir, readLogs(dataDir))).toEqual([]);
  });
});
