// Many server processes on one PostgreSQL database: NONOLAB_WORKERS=2 under bots with one worker SIGKILLed mid-play
// (every acknowledged event in the database once, in order; the participants carry on through the other worker),
// a withdrawal that leaves no row anywhere, the dashboard's live mirror fed by another process, and the embedded
// SQLite store refusing a second worker.
import { afterEach, describe, expect, it } from 'vitest';
import { createRng } from '../../shared/random.ts';
import { Bot, HttpClient, type BotStats } from '../support/bots.ts';
import { defaultConfig, startServer, type RunningServer } from '../support/server.ts';
import { databaseFor } from '../support/postgres.ts';
import { readSse } from '../support/sse.ts';
import { Participant, event, rowsMentioning } from '../support/testServer.ts';
import { readDbLogs, verifyBots, verifyDbStore } from './verify.ts';
import { tracesOf } from './faults.ts';

const BOTS = Number(process.env.NONOLAB_WORKERS_BOTS ?? 16);
const PASSWORD = 'workers test password';
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const servers: RunningServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop('SIGKILL');
});

/** The workers serving now, by index: pid from their start-up line (the latest line of each index wins). */
function workerPids(output: string): Map<string, number> {
  const pids = new Map<string, number>();
  for (const m of output.matchAll(/nonolab: worker (\d+) \(pid (\d+)\) serving/g)) pids.set(m[1], Number(m[2]));
  return pids;
}

async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}


describe('NONOLAB_WORKERS', () => {
  it('is refused with the embedded SQLite store, naming the variable that would allow it', async () => {
    await expect(startServer({ env: { NONOLAB_WORKERS: '2' } })).rejects.toThrow(/exited with 2[\s\S]*NONOLAB_WORKERS=2 needs a shared database[\s\S]*NONOLAB_DATABASE_URL/);
    await expect(startServer({ env: { NONOLAB_WORKERS: 'many', NONOLAB_DATABASE_URL: 'postgres://127.0.0.1:1/x' } })).rejects.toThrow(/exited with 2[\s\S]*NONOLAB_WORKERS: expected a whole number/);
  });

  it(`keeps every acknowledged event of ${BOTS} bots when one of two workers is SIGKILLed; they carry on through the other`, async () => {
    const databaseUrl = (await databaseFor('postgres'))!;
    const server = await startServer({ env: { NONOLAB_WORKERS: '2', NONOLAB_DATABASE_URL: databaseUrl, NONOLAB_START_LIMIT: '100000', NONOLAB_ADMIN_PASSWORD: PASSWORD } });
    servers.push(server);
    await waitFor(() => workerPids(server.output()).size === 2, 'two workers');
    const config = defaultConfig();
    const http = new HttpClient(server.url, { timeoutMs: 5_000 });
    const stats: BotStats = { acks: [], failures: 0 };
    // Bot 0 comes from a panel (its panel id is one more row a withdrawal must remove).
    const panel = { provider: 'prolific', participant_id: 'PID-workers-0' };
    const bots = Array.from(
      { length: BOTS },
      (_, i) => new Bot({ http, config, seed: 7000 + i, thinkMs: 12, burst: 3, noiseMoves: 6, backoffMs: 50, maxBackoffMs: 800, stats, ...(i === 0 ? { startBody: { mode: 'panel', panel } } : {}) }),
    );
    let playing = true;
    const plays = Promise.all(bots.map((b) => b.play())).finally(() => (playing = false));
    // Kill worker 0 once the bots are well under way (among their requests), then let them finish.
    const rng = createRng(18);
    await waitFor(() => stats.acks.length >= 40 || !playing, 'acknowledged batches');
    await sleep(rng.int(50));
    expect(playing).toBe(true);
    const victim = workerPids(server.output()).get('0')!;
    const acksAtKill = stats.acks.length;
    const killedAt = performance.now();
    process.kill(victim, 'SIGKILL');
    // When the primary's new worker 0 starts serving: until then every request went to worker 1.
    let replacedAt = Infinity;
    const watching = waitFor(() => (workerPids(server.output()).get('0') ?? victim) !== victim, 'a new worker 0', 120_000).then(() => (replacedAt = performance.now()));
    await plays;
    http.close();
    await watching;
    expect(server.output()).toMatch(/worker 0 ended \(SIGKILL\); starting another/);
    expect(stats.acks.length).toBeGreaterThan(acksAtKill);
    // The participants carried on through the other worker: batches were acknowledged after the kill and before a
    // new worker 0 was serving (worker 1 alone answered them).
    const throughTheOther = stats.acks.filter((a) => a.at > killedAt && a.at < replacedAt).length;
    expect(throughTheOther).toBeGreaterThan(0);
    expect(bots.every((b) => b.completionCode === config.completion.code)).toBe(true);
    const logs = await readDbLogs(databaseUrl);
    expect(verifyBots(logs, bots)).toEqual([]);
    expect(await verifyDbStore(databaseUrl, logs)).toEqual([]);
    for (const bot of bots) {
      expect(logs.get(bot.sessionId)!.records.filter((r) => r.origin === 'client')).toHaveLength(bot.events.length);
      expect(bot.ackedSeq).toBe(bot.events.length);
    }
    expect(server.output()).not.toMatch(/internal server error|error: /);
    console.log(
      `workers test: ${stats.acks.length} acknowledged batches (${acksAtKill} before the SIGKILL of worker 0, ${throughTheOther} by worker 1 alone ` +
        `in the ${Math.round(replacedAt - killedAt)} ms before a new worker 0 served), ${stats.failures} failed requests retried`,
    );

    // A session that played through the SIGKILL (a panel participant, completed, with a second browser's token)
    // withdrawn by the experimenter: no row anywhere names it, in the database or in the data directory's files.
    const played = bots[0];
    const second = new Participant(server.url);
    expect((await second.call('POST', '/api/sessions', { mode: 'panel', panel })).json.session_id).toBe(played.sessionId);
    const experimenter = new Participant(server.url);
    expect((await experimenter.call('POST', '/api/admin/login', { password: PASSWORD })).status).toBe(200);
    const before = await rowsMentioning(databaseUrl, played.sessionId);
    for (const table of ['sessions', 'events', 'session_tokens', 'panel_ids', 'completions', 'sequences']) expect(before.some((r) => r.startsWith(`${table}:`)), table).toBe(true);
    const withdrawn = await experimenter.call('POST', `/api/admin/sessions/${played.sessionId}/withdraw`, { confirm: played.sessionId });
    // The answer says what was deleted (the log's records, the panel id) and which sequence went back to the pool.
    expect(withdrawn.json).toMatchObject({ withdrawn: true, session_id: played.sessionId, deleted: { panel_ids: true } });
    expect(withdrawn.json.deleted.records).toBeGreaterThan(0);
    expect(await rowsMentioning(databaseUrl, played.sessionId)).toEqual([]);
    expect(await rowsMentioning(databaseUrl, panel.participant_id)).toEqual([]);
    expect(await tracesOf({ dataDir: server.dataDir }, played.sessionId)).toEqual([]);
    for (const cookie of [second.cookie, played.cookie]) {
      const again = new Participant(server.url);
      again.cookie = cookie;
      expect((await again.call('GET', '/api/session')).status).toBe(401);
    }

    // A withdrawal through either worker leaves no row of the session anywhere in the database.
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    expect((await p.call('POST', '/api/session/events', { events: [event(s.session_id, 1), event(s.session_id, 2)] })).json.acked_seq).toBe(2);
    expect((await rowsMentioning(databaseUrl, s.session_id)).length).toBeGreaterThan(0);
    expect((await p.call('POST', '/api/session/withdraw', {})).json.withdrawn).toBe(true);
    expect(await rowsMentioning(databaseUrl, s.session_id)).toEqual([]);
    expect((await p.call('GET', '/api/session')).status).toBe(401);
  });

  it('lets every request of a session go to either of two server processes (no session affinity): bots finish, nothing lost or doubled', async () => {
    const databaseUrl = (await databaseFor('postgres'))!;
    const env = { NONOLAB_DATABASE_URL: databaseUrl, NONOLAB_START_LIMIT: '100000' };
    const a = await startServer({ env });
    servers.push(a);
    const b = await startServer({ env });
    servers.push(b);
    const clients = [new HttpClient(a.url), new HttpClient(b.url)];
    // A load balancer without affinity at its worst: each request goes to the other server than the one before.
    let turn = 0;
    const alternating = { call: (...args: Parameters<HttpClient['call']>) => clients[turn++ % 2].call(...args) } as unknown as HttpClient;
    const config = defaultConfig();
    const stats: BotStats = { acks: [], failures: 0 };
    const bots = Array.from({ length: 6 }, (_, i) => new Bot({ http: alternating, config, seed: 900 + i, thinkMs: 5, burst: 3, noiseMoves: 4, backoffMs: 50, maxBackoffMs: 400, stats }));
    await Promise.all(bots.map((bot) => bot.play()));
    for (const c of clients) c.close();
    expect(bots.every((bot) => bot.completionCode === config.completion.code)).toBe(true);
    const logs = await readDbLogs(databaseUrl);
    expect(verifyBots(logs, bots)).toEqual([]);
    expect(await verifyDbStore(databaseUrl, logs)).toEqual([]);
    expect(stats.failures).toBe(0);
  });

  it('feeds the dashboard of one server process with the records another one takes (LISTEN/NOTIFY)', async () => {
    const databaseUrl = (await databaseFor('postgres'))!;
    const env = { NONOLAB_DATABASE_URL: databaseUrl, NONOLAB_ADMIN_PASSWORD: PASSWORD };
    // Two separate servers (as on two machines behind a load balancer): each its own port and data directory.
    const a = await startServer({ env });
    servers.push(a);
    const b = await startServer({ env });
    servers.push(b);
    const experimenter = new Participant(a.url);
    expect((await experimenter.call('POST', '/api/admin/login', { password: PASSWORD })).status).toBe(200);
    const p = new Participant(b.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id as string;
    const mirror = await fetch(`${a.url}/api/admin/sessions/${id}/live`, { headers: { cookie: experimenter.cookie } });
    const summaries = await fetch(`${a.url}/api/admin/live`, { headers: { cookie: experimenter.cookie } });
    const records = readSse(mirror, (got) => got.some((g) => g.event === 'records' && !g.data.initial));
    // A change of this session's summary after the snapshot: its last activity is the batch taken by the other server.
    const startedAt = (got: { event: string; data: any }[]) => got[0]?.data.sessions?.find((x: any) => x.session_id === id)?.last_activity ?? Infinity;
    const changes = readSse(summaries, (got) =>
      got.some((g) => g.event === 'changes' && g.data.messages.some((m: any) => m.summary?.session_id === id && m.summary.last_activity > startedAt(got))),
    );
    await sleep(10);
    await sleep(100);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2)] })).json.acked_seq).toBe(2);
    const got = await records;
    expect(got[0].data.records.map((r: any) => r.type)).toEqual(['session_start']);
    expect(got.at(-1)!.data.records.map((r: any) => r.seq)).toEqual([1, 2]);
    expect((await changes).at(-1)!.event).toBe('changes');
    // Either server answers the participant (no session affinity).
    const onA = new Participant(a.url);
    onA.cookie = p.cookie;
    expect((await onA.call('POST', '/api/session/events', { events: [event(id, 3)] })).json.acked_seq).toBe(3);
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(3);
  });
});
