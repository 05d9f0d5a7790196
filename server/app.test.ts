// Integration tests of the participant API: a real server, real HTTP, a temporary data directory; every suite but the
// file format's runs on both stores (SQLite + NDJSON, and PostgreSQL on the test cluster).
import { afterEach, describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, rowsMentioning, startTestServer, validAnswers, type TestServer } from '../tests/support/testServer.ts';
import { defaultConfig, writeConfig } from '../tests/support/server.ts';
import { STORES } from '../tests/support/postgres.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A session's durable records, from whichever store the server runs on. */
async function logLines(server: TestServer, sessionId: string): Promise<any[]> {
  return server.nonolab.log.read(sessionId);
}

describe.each(STORES)('on %s', (store) => {
describe('sessions', () => {
  it('starts a session with a sequence of three distinct pool puzzles and resumes it by cookie', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const started = await p.call('POST', '/api/sessions', {});
    expect(started.status).toBe(201);
    // The sequence is leased when the participant consents, not on the first request.
    expect(started.json.sequence).toEqual([]);
    expect(JSON.stringify(started.json)).not.toContain('solution');
    await playSteps(p, started.json, defaultConfig(), 1);
    expect(new Set(started.json.sequence).size).toBe(3);
    const resumed = await p.call('GET', '/api/session');
    expect(resumed.json.session_id).toBe(started.json.session_id);
    expect(resumed.json.sequence).toEqual(started.json.sequence);
    expect((await new Participant(server.url).call('GET', '/api/session')).status).toBe(401);
  });

  it('answers a first visit without an error: no token is no session (200), an unknown token 401', async () => {
    server = await startTestServer({ store });
    const first = new Participant(server.url);
    expect(await first.call('GET', '/api/session/current')).toEqual({ status: 200, json: { session: null } });
    const started = (await first.call('POST', '/api/sessions', {})).json;
    const mine = await first.call('GET', '/api/session/current');
    expect(mine.status).toBe(200);
    expect(mine.json.session.session_id).toBe(started.session_id);
    expect(mine.json.session.sequence).toEqual(started.sequence);
    const stranger = new Participant(server.url);
    stranger.cookie = 'nonolab_token=not-a-token-the-server-knows';
    expect((await stranger.call('GET', '/api/session/current')).status).toBe(401);
  });

  it('acknowledges in order, drops duplicates and holds events beyond a gap', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2)] })).json.acked_seq).toBe(2);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 2), event(id, 4)] })).json.acked_seq).toBe(2);
    expect((await logLines(server, id)).filter((e) => e.origin === 'client')).toHaveLength(2);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 3)] })).json.acked_seq).toBe(4);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 3)] })).json.acked_seq).toBe(4);
    const client = (await logLines(server, id)).filter((e) => e.origin === 'client');
    expect(client.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(client.every((e) => typeof e.t_server === 'number' && e.config_hash && e.app_version)).toBe(true);
  });

  it('rejects bad input with a clear 4xx and writes nothing', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    const before = JSON.stringify(await logLines(server, id));
    const bad = await p.call('POST', '/api/session/events', { events: [event(id, 1, { seq: -3 })] });
    expect(bad.status).toBe(400);
    expect(bad.json.issues.join(' ')).toContain('events.0.seq');
    expect((await p.call('POST', '/api/session/events', '{"events": [')).status).toBe(400);
    expect((await p.call('POST', '/api/session/events', { events: [event('sOTHER', 1)] })).status).toBe(403);
    expect((await new Participant(server.url).call('POST', '/api/session/events', { events: [event(id, 1)] })).status).toBe(401);
    expect(JSON.stringify(await logLines(server, id))).toBe(before);
  });

  it('checks a board on the server and gives hints without revealing the solution', async () => {
    server = await startTestServer({ store });
    const config = defaultConfig();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    await playSteps(p, s, config, 1);
    const puzzle = config.puzzles.find((q) => q.id === s.sequence[0])!;
    const blank = puzzle.solution!.map((r) => '?'.repeat(r.length));
    expect((await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows: blank })).json).toEqual({ solved: false });
    expect((await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows: puzzle.solution })).json).toEqual({ solved: true });
    const hint = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: blank })).json.hint;
    expect(puzzle.solution![hint.row][hint.col] === '#').toBe(hint.value === 'filled');
    expect(hint.reason_in_line).toBe(true); // a blank board's hint reasons in a line (the heading names it)
    // A mistake the engine explains in a line: the heading may name the reason line (issue 32).
    const wrongRows = blank.map((r, i) => (i === hint.row ? r.slice(0, hint.col) + (hint.value === 'filled' ? 'x' : '#') + r.slice(hint.col + 1) : r));
    const mistake = (await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: wrongRows })).json.hint;
    expect(mistake).toMatchObject({ kind: 'error', row: hint.row, col: hint.col, reason_in_line: true });
    const other = config.puzzles.find((q) => !s.sequence.includes(q.id))!;
    expect((await p.call('POST', '/api/session/check', { puzzle_id: other.id, position: 1, rows: blank })).status).toBe(403);
    const checks = (await logLines(server, s.session_id)).filter((e) => e.type === 'check');
    expect(checks.map((e) => e.payload.solved)).toEqual([false, true]);
  });

  it('hands out the completion code only after the study is finished and every event is held', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    expect((await p.call('POST', '/api/session/complete', { last_seq: 0 })).status).toBe(409);
    const lastStep = 11; // consent, tutorial, warmup, survey, 3x(puzzle, rating), post: then the complete step
    const last = await playSteps(p, s, defaultConfig(), lastStep);
    expect((await p.call('POST', '/api/session/complete', { last_seq: last + 1 })).status).toBe(409);
    const done = await p.call('POST', '/api/session/complete', { last_seq: last });
    expect(done.json.code).toBe(defaultConfig().completion.code);
    expect((await p.call('GET', '/api/session')).json.status).toBe('complete');
  });
});

describe('assignment', () => {
  it('gives 120 distinct sequences with per-puzzle counts never more than 2 apart, then refuses when configured', async () => {
    const config = defaultConfig();
    config.assignment.when_exhausted = 'refuse';
    server = await startTestServer({ store, configPath: writeConfig(config), startLimitPerMinute: 10_000 });
    const seen = new Set<string>();
    const counts = new Map<string, number>();
    for (let i = 0; i < 120; i++) {
      const p = new Participant(server.url);
      const s = (await p.call('POST', '/api/sessions', {})).json;
      await playSteps(p, s, config, 1);
      seen.add(s.sequence.join());
      for (const id of s.sequence) counts.set(id, (counts.get(id) ?? 0) + 1);
      const values = config.puzzles.map((p) => counts.get(p.id) ?? 0);
      expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(2);
    }
    expect(seen.size).toBe(120);
    const refused = await new Participant(server.url).call('POST', '/api/sessions', {});
    expect(refused.status).toBe(409);
  });

  it('never shares a sequence between simultaneous starts', async () => {
    server = await startTestServer({ store });
    const config = defaultConfig();
    const results = await Promise.all(
      Array.from({ length: 60 }, async () => {
        const p = new Participant(server!.url);
        const started = await p.call('POST', '/api/sessions', {});
        await playSteps(p, started.json, config, 1); // the lease is taken at consent
        return started;
      }),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json.sequence.join())).size).toBe(60);
  });
});

describe('withdrawal', () => {
  it('deletes every trace of the session and returns its sequence to the pool', async () => {
    server = await startTestServer({ store });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const marker = 'UNIQUE-MARKER-7f3a9';
    const seq = await playSteps(p, s, defaultConfig(), 3); // on the pre-survey
    const answers = { ...validAnswers(defaultConfig().phases[3]), academic_program: marker };
    const sent = await p.call('POST', '/api/session/events', {
      events: [event(s.session_id, seq + 1, { step: 3, phase: 'pre_survey', type: 'survey_submit', payload: { survey_id: 'pre_survey', answers } })],
    });
    expect(sent.json.acked_seq).toBe(seq + 1);
    expect(JSON.stringify(await logLines(server, s.session_id))).toContain(marker);
    const res = await p.call('POST', '/api/session/withdraw', {});
    expect(res.json.withdrawn).toBe(true);
    expect((await p.call('GET', '/api/session')).status).toBe(401);
    // No file, no row, no trace of its id or its answers anywhere in the data directory.
    const { readdirSync, statSync } = await import('node:fs');
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    for (const file of walk(server.dataDir)) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(s.session_id)), file).toBe(false);
      expect(bytes.includes(Buffer.from(marker)), file).toBe(false);
    }
    // No row anywhere in the database either.
    if (server.databaseUrl) {
      expect(await rowsMentioning(server.databaseUrl, s.session_id)).toEqual([]);
      expect(await rowsMentioning(server.databaseUrl, marker)).toEqual([]);
    }
    const seqRow = (await server.nonolab.store.allSequences()).find((q) => q.puzzle_ids.join() === s.sequence.join());
    expect(seqRow).toMatchObject({ status: 'free', session_id: null });
    expect((await server.nonolab.store.auditRows()).map(({ action, detail }) => ({ action, detail }))).toEqual([{ action: 'withdrawal', detail: 'by participant' }]);
  });
});
});

describe('durability of the NDJSON files (SQLite store)', () => {
  it('cuts a torn last line on restart and keeps SQLite in agreement with the file', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    const p = new Participant(server.url);
    const id = (await p.call('POST', '/api/sessions', {})).json.session_id;
    await p.call('POST', '/api/session/events', { events: [event(id, 1), event(id, 2)] });
    await server.close();
    appendFileSync(join(dataDir, 'sessions', `${id}.ndjson`), '{"session_id":"' + id + '","seq":3,"ty');
    server = await startTestServer({ dataDir });
    const again = new Participant(server.url);
    again.cookie = p.cookie;
    const lines = readFileSync(join(dataDir, 'sessions', `${id}.ndjson`), 'utf8');
    expect(lines.endsWith('\n')).toBe(true);
    expect(lines.trim().split('\n').map((l) => JSON.parse(l).seq ?? null)).toEqual([null, 1, 2]);
    expect((await again.call('GET', '/api/session')).json.acked_seq).toBe(2);
    expect((await again.call('POST', '/api/session/events', { events: [event(id, 3)] })).json.acked_seq).toBe(3);
  });
});


