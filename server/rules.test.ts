// Integration tests of the study rules: panel and kiosk starts, time caps, inactivity, rate limits.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, sqliteDb, startTestServer, validAnswers, type TestServer } from '../tests/support/testServer.ts';
import { defaultConfig, writeConfig } from '../tests/support/server.ts';
import { expandSteps } from '../shared/study/steps.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});


describe('panel and kiosk starts', () => {
  it('keeps panel identifiers out of the event log and gives a returning panel participant the same session', async () => {
    server = await startTestServer();
    const panel = { provider: 'prolific', participant_id: 'PID5f3e2a', study_id: 'STUDY77', session_id: 'SESS99' };
    const first = await new Participant(server.url).call('POST', '/api/sessions', { mode: 'panel', panel });
    expect(first.status).toBe(201);
    const again = await new Participant(server.url).call('POST', '/api/sessions', { mode: 'panel', panel });
    expect(again.json.session_id).toBe(first.json.session_id);
    expect(again.json.sequence).toEqual(first.json.sequence);
    const log = readFileSync(join(server.dataDir, 'sessions', `${first.json.session_id}.ndjson`), 'utf8');
    for (const secret of ['PID5f3e2a', 'STUDY77', 'SESS99']) expect(log).not.toContain(secret);
    const bad = await new Participant(server.url).call('POST', '/api/sessions', { mode: 'panel' });
    expect(bad.status).toBe(400);
    expect(bad.json.issues.join()).toContain('panel');
  });

  it('needs a label in kiosk mode', async () => {
    server = await startTestServer();
    expect((await new Participant(server.url).call('POST', '/api/sessions', { mode: 'kiosk' })).status).toBe(400);
    expect((await new Participant(server.url).call('POST', '/api/sessions', { mode: 'kiosk', label: 'P-017' })).status).toBe(201);
    expect((await server.nonolab.store.sessions())[0].label).toBe('P-017');
  });

  it('substitutes the completion code into the panel redirect URL', async () => {
    const config = defaultConfig();
    config.completion.redirect_url = 'https://panel.example/complete?cc={code}';
    server = await startTestServer({ configPath: writeConfig(config) });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, config, 11);
    const done = await p.call('POST', '/api/session/complete', { last_seq: last });
    expect(done.json.redirect_url).toBe(`https://panel.example/complete?cc=${config.completion.code}`);
  });
});

describe('time caps on the server', () => {
  it('refuses checks and hints on the warmup once its cap and grace have passed', async () => {
    let now = 1_800_000_000_000;
    server = await startTestServer({ clock: () => now });
    const config = defaultConfig();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    await playSteps(p, s, config, 2); // on step 2: warmup
    const warmup = config.practice_puzzles.find((q) => q.id === 'warmup')!;
    const rows = warmup.solution!;
    now += 200_000;
    expect((await p.call('POST', '/api/session/check', { puzzle_id: 'warmup', position: null, rows })).json.solved).toBe(true);
    now += 300_000 + 31_000 - 200_000;
    const late = await p.call('POST', '/api/session/check', { puzzle_id: 'warmup', position: null, rows });
    expect(late.status).toBe(409);
    expect(late.json.error).toContain('time');
    expect(late.json.code).toBe('time_over');
    expect((await p.call('POST', '/api/session/hint', { puzzle_id: 'warmup', position: null, rows })).status).toBe(409);
  });
});

describe('checks and hints name the current step', () => {
  it("refuses a check of the warmup from a study puzzle's step, and of a puzzle at another position", async () => {
    server = await startTestServer();
    const config = defaultConfig();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, config, 4); // consent, tutorial, warmup, pre-survey: the sequence is leased
    const sequence = (await p.call('GET', '/api/session')).json.sequence as string[];
    const first = expandSteps(config.phases, sequence).find((x) => x.kind === 'puzzle')!;
    expect(first.index).toBe(4);
    await p.call('POST', '/api/session/events', { events: [event(s.session_id, last + 1, { step: first.index, phase: first.phase_id, puzzle_id: first.puzzle_id, position: first.position, type: 'step_start', payload: { kind: 'puzzle' } })] });
    const logFile = join(server.dataDir, 'sessions', `${s.session_id}.ndjson`);
    const before = readFileSync(logFile, 'utf8');
    const warmup = config.practice_puzzles.find((q) => q.id === 'warmup')!;
    const old = await p.call('POST', '/api/session/check', { puzzle_id: 'warmup', position: null, rows: warmup.solution! });
    expect(old.status).toBe(409);
    expect(old.json.error).toContain('current step');
    expect(old.json.code).toBe('not_current_step');
    const elsewhere = await p.call('POST', '/api/session/check', { puzzle_id: first.puzzle_id, position: first.position! + 1, rows: [] });
    expect(elsewhere.status).toBe(409);
    expect((await p.call('POST', '/api/session/hint', { puzzle_id: 'warmup', position: null, rows: [] })).status).toBe(409);
    expect(readFileSync(logFile, 'utf8')).toBe(before);
    // The step's own puzzle is checked as ever.
    expect((await p.call('POST', '/api/session/check', { puzzle_id: first.puzzle_id, position: first.position, rows: [] })).json).toEqual({ solved: false });
  });

  it('appends nothing to the log of a completed session: check and hint are refused', async () => {
    server = await startTestServer();
    const config = defaultConfig();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const last = await playSteps(p, s, config, 11);
    expect((await p.call('POST', '/api/session/complete', { last_seq: last })).status).toBe(200);
    const sequence = (await p.call('GET', '/api/session')).json.sequence as string[];
    const logFile = join(server.dataDir, 'sessions', `${s.session_id}.ndjson`);
    const before = readFileSync(logFile, 'utf8');
    const puzzle = config.puzzles.find((q) => q.id === sequence[0])!;
    const check = await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows: puzzle.solution! });
    expect(check.status).toBe(409);
    expect(check.json.error).toContain('ended');
    expect(check.json.code).toBe('session_ended');
    expect((await p.call('POST', '/api/session/hint', { puzzle_id: puzzle.id, position: 1, rows: [] })).status).toBe(409);
    expect(readFileSync(logFile, 'utf8')).toBe(before);
  });
});

describe('a hint in a study without hints', () => {
  it("is refused with 403 and the code the page words it by (hints_off), and logs nothing", async () => {
    const config = defaultConfig();
    config.hints = { ...config.hints, policy: 'off' };
    server = await startTestServer({ configPath: writeConfig(config) });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    await playSteps(p, s, config, 2); // on step 2: warmup
    const logFile = join(server.dataDir, 'sessions', `${s.session_id}.ndjson`);
    const before = readFileSync(logFile, 'utf8');
    const refused = await p.call('POST', '/api/session/hint', { puzzle_id: 'warmup', position: null, rows: [] });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'hints are turned off in this study', code: 'hints_off' });
    expect(readFileSync(logFile, 'utf8')).toBe(before);
  });
});

describe('inactivity', () => {
  it('abandons idle sessions and returns the lease of one that never finished a puzzle', async () => {
    let now = 1_800_000_000_000;
    server = await startTestServer({ clock: () => now });
    const early = new Participant(server.url);
    const earlySession = (await early.call('POST', '/api/sessions', {})).json;
    const earlyId = earlySession.session_id;
    const earlySeq = await playSteps(early, earlySession, defaultConfig(), 1); // consented: holds a sequence
    const late = new Participant(server.url);
    const lateSession = (await late.call('POST', '/api/sessions', {})).json;
    const lateId = lateSession.session_id;
    const lastSeq = await playSteps(late, lateSession, defaultConfig(), 6); // finished the first puzzle
    now += 31 * 60_000;
    expect((await server.nonolab.service.sweepInactive()).sort()).toEqual([earlyId, lateId].sort());
    const db = sqliteDb(server);
    const leaseOf = (id: string) => db.prepare('SELECT s.status FROM sequences s JOIN sessions x ON x.sequence_id = s.id WHERE x.id = ?').get(id) as { status: string };
    expect(leaseOf(earlyId).status).toBe('free');
    expect(leaseOf(lateId).status).toBe('leased');
    // Both come back: the one whose lease was returned gets it again, as nobody took it meanwhile (record.test.ts
    // has the one whose sequence went to another participant: 410); the other simply becomes active again.
    expect((await early.call('POST', '/api/session/events', { events: [event(earlyId, earlySeq + 1, { step: 0 })] })).status).toBe(200);
    expect(leaseOf(earlyId).status).toBe('leased');
    expect((await late.call('POST', '/api/session/events', { events: [event(lateId, lastSeq + 1, { step: 0 })] })).json.acked_seq).toBe(lastSeq + 1);
    expect((await late.call('GET', '/api/session')).json.status).toBe('active');
  });
});

describe('rate limits', () => {
  it('limits session starts per address', async () => {
    server = await startTestServer({ startLimitPerMinute: 5 });
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await new Participant(server.url).call('POST', '/api/sessions', {})).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
  });
});

describe('flagged sessions and the balance', () => {
  it('leaves sessions flagged pilot/test/excluded out of the balanced draw', async () => {
    // With the pilot counted, the next session must avoid all three of its puzzles (6 puzzles, 3 each); left out,
    // the next draw is free to reuse them. Over several fresh pools at least one draw does.
    const { AdminMarks } = await import('./admin/marks.ts');
    let overlaps = 0;
    for (let trial = 0; trial < 8; trial++) {
      server = await startTestServer();
      const consented = async () => {
        const p = new Participant(server!.url);
        const s = (await p.call('POST', '/api/sessions', {})).json;
        await playSteps(p, s, defaultConfig(), 1);
        return s;
      };
      const pilot = await consented();
      const marks = new AdminMarks(server.nonolab.store);
      await marks.set(pilot.session_id, { flag: 'pilot' }, 0);
      const next = await consented();
      if (next.sequence.some((id: string) => pilot.sequence.includes(id))) overlaps++;
      expect(next.sequence.join()).not.toBe(pilot.sequence.join());
      await server.close();
      server = null;
    }
    expect(overlaps).toBeGreaterThan(0);
  });
});

describe('participants who end early', () => {
  it('gives a screened-out participant the screened-out code and returns their sequence to the pool', async () => {
    const config = defaultConfig();
    config.completion.screened_out_code = 'NOT-ELIGIBLE-7';
    const survey = config.phases.find((ph) => ph.kind === 'survey')!;
    if (survey.kind !== 'survey') throw new Error('no survey');
    survey.eligibility = { criteria: { nonogram_skill: [5] }, message: 'not this time' };
    server = await startTestServer({ configPath: writeConfig(config) });
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    let seq = await playSteps(p, s, config, 3);
    const on = { step: 3, phase: survey.id };
    const answers = { ...validAnswers(survey), nonogram_skill: 1 };
    // Answers that fail the criteria cannot end the step 'done', only 'screened_out'.
    const dishonest = await p.call('POST', '/api/session/events', {
      events: [event(s.session_id, seq + 1, { ...on, type: 'survey_submit', payload: { survey_id: survey.id, answers } }), event(s.session_id, seq + 2, { ...on, type: 'step_end', payload: { kind: 'survey', reason: 'done' } })],
    });
    expect(dishonest.status).toBe(409);
    expect(dishonest.json.error).toContain("criteria");
    await p.call('POST', '/api/session/events', {
      events: [event(s.session_id, ++seq, { ...on, type: 'survey_submit', payload: { survey_id: survey.id, answers } }), event(s.session_id, ++seq, { ...on, type: 'step_end', payload: { kind: 'survey', reason: 'screened_out' } })],
    });
    await expect.poll(async () => (await p.call('GET', '/api/session')).json.status).toBe('screened_out');
    expect((await p.call('GET', '/api/session')).json.completion_code).toBe('NOT-ELIGIBLE-7');
    expect((await p.call('POST', '/api/session/complete', { last_seq: seq })).json).toEqual({ code: 'NOT-ELIGIBLE-7', redirect_url: null });
    const lease = sqliteDb(server).prepare('SELECT status, session_id FROM sequences WHERE puzzle_ids = ?').get(JSON.stringify(s.sequence));
    expect(lease).toEqual({ status: 'free', session_id: null });
  });

  it('never leases a sequence to a participant who declines consent', async () => {
    server = await startTestServer();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    await p.call('POST', '/api/session/events', { events: [event(s.session_id, 1, { type: 'consent', payload: { agreed: false } })] });
    // The progression ends the session at the step_end that declines, not at the consent record (a second batch here).
    expect((await p.call('GET', '/api/session')).json.status).toBe('active');
    await p.call('POST', '/api/session/events', { events: [event(s.session_id, 2, { type: 'step_end', payload: { kind: 'consent', reason: 'declined' } })] });
    await expect.poll(async () => (await p.call('GET', '/api/session')).json.status).toBe('declined');
    expect((await p.call('GET', '/api/session')).json.sequence).toEqual([]);
    expect((await server.nonolab.store.allSequences()).filter((q) => q.status !== 'free')).toEqual([]);
  });
});
