// The server decides what happened: a dishonest or buggy client cannot jump steps, end a step without meeting its
// rule, claim time that has not passed, write after the end, drain the pool with bare starts, or grow the server's
// memory with events far ahead of a gap.
import { afterEach, describe, expect, it } from 'vitest';
import { Participant, event, playSteps, sqliteDb, startTestServer, validAnswers, type TestServer } from '../tests/support/testServer.ts';
import { defaultConfig, writeConfig } from '../tests/support/server.ts';
import { MAX_SEQ_AHEAD } from './studyService.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** The heap after a full collection: what is retained, not garbage waiting to be collected. */
function retainedHeap(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function started(opts: Parameters<typeof startTestServer>[0] = {}) {
  server = await startTestServer(opts);
  const p = new Participant(server.url);
  const s = (await p.call('POST', '/api/sessions', {})).json as { session_id: string; sequence: string[] };
  return { p, s, id: s.session_id };
}

const send = (p: Participant, events: unknown[]) => p.call('POST', '/api/session/events', { events });

describe('progression is the server\'s', () => {
  it('refuses a jump to the last step (409 naming the expected step) and gives no completion code', async () => {
    const { p, id } = await started();
    const jump = await send(p, [event(id, 1, { step: 10, phase: 'post_survey', type: 'step_end', payload: { kind: 'post_survey', reason: 'done' } })]);
    expect(jump.status).toBe(409);
    expect(jump.json).toMatchObject({ expected_step: 0, seq: 1 });
    expect(jump.json.error).toMatch(/step 10.*step 0/);
    const complete = await p.call('POST', '/api/session/complete', { last_seq: 0 });
    expect(complete.status).toBe(409);
    expect(complete.json.code).toBeUndefined();
    // Nothing of the refused batch was stored.
    expect((await p.call('GET', '/api/session')).json).toMatchObject({ acked_seq: 0, step: 0 });
  });

  it('ends a step only when its own rule is met', async () => {
    const config = defaultConfig();
    const { p, s, id } = await started();
    const consentEnd = event(id, 1, { type: 'step_end', payload: { kind: 'consent', reason: 'done' } });
    expect((await send(p, [consentEnd])).json.error).toContain('consent has not been answered');
    // A step_end naming another kind, or a reason the kind does not have.
    expect((await send(p, [event(id, 1, { type: 'step_end', payload: { kind: 'survey', reason: 'done' } })])).status).toBe(409);
    let seq = await playSteps(p, s, config, 3); // consent, tutorial, warmup: on the pre-survey
    const onSurvey = { step: 3, phase: 'pre_survey' };
    const survey = config.phases[3];
    // Answers that do not fit the config are refused at the submit, naming the item.
    const bad = await send(p, [event(id, seq + 1, { ...onSurvey, type: 'survey_submit', payload: { survey_id: 'pre_survey', answers: { ...validAnswers(survey), nonogram_skill: 99 } } })]);
    expect(bad.status).toBe(409);
    expect(bad.json.error).toContain('nonogram_skill');
    expect((await send(p, [event(id, seq + 1, { ...onSurvey, type: 'step_end', payload: { kind: 'survey', reason: 'done' } })])).json.error).toContain('not been submitted');
    seq = await playSteps(p, s, config, 4, { from: 3, seq });
    // The first puzzle: 'solved' needs the server's own check to have found it solved.
    const onPuzzle = { step: 4, phase: 'puzzles', puzzle_id: s.sequence[0], position: 1 };
    const claimed = await send(p, [event(id, seq + 1, { ...onPuzzle, type: 'step_end', payload: { kind: 'puzzle', reason: 'solved' } })]);
    expect(claimed.status).toBe(409);
    expect(claimed.json.error).toContain("server's check");
    const puzzle = config.puzzles.find((q) => q.id === s.sequence[0])!;
    const wrongRows = puzzle.solution!.map((r) => r.replaceAll('#', 'x'));
    expect((await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows: wrongRows })).json.solved).toBe(false);
    expect((await send(p, [event(id, seq + 1, { ...onPuzzle, type: 'step_end', payload: { kind: 'puzzle', reason: 'solved' } })])).status).toBe(409);
    expect((await p.call('POST', '/api/session/check', { puzzle_id: puzzle.id, position: 1, rows: puzzle.solution })).json.solved).toBe(true);
    expect((await send(p, [event(id, seq + 1, { ...onPuzzle, type: 'step_end', payload: { kind: 'puzzle', reason: 'solved' } })])).json.acked_seq).toBe(seq + 1);
    // The rating step needs a rating.
    const onRating = { ...onPuzzle, step: 5 };
    expect((await send(p, [event(id, seq + 2, { ...onRating, type: 'step_end', payload: { kind: 'rating', reason: 'done' } })])).json.error).toContain('no rating');
    // A record the step does not write (a move on the rating screen) is refused too.
    expect((await send(p, [event(id, seq + 2, { ...onRating, type: 'move', payload: { move: { type: 'fill', row: 0, col: 0 } } })])).status).toBe(409);
  });

  it('allows a skip only after the allowed time, by a client clock that cannot run ahead of the server\'s', async () => {
    let now = 1_790_000_000_000;
    const config = defaultConfig(); // skip_min_seconds: 30
    const { p, s, id } = await started({ clock: () => now });
    const seq = await playSteps(p, s, config, 4);
    const onPuzzle = { step: 4, phase: 'puzzles', puzzle_id: s.sequence[0], position: 1 };
    const skip = (at: number) => [
      event(id, seq + 1, { ...onPuzzle, t_wall: at, type: 'move', payload: { move: { type: 'skip' } } }),
      event(id, seq + 2, { ...onPuzzle, t_wall: at, type: 'step_end', payload: { kind: 'puzzle', reason: 'skipped' } }),
    ];
    // playSteps stamps t_wall 1_780_000_000_000 + seq; the step began at the last step_end's.
    const stepBegan = 1_780_000_000_000 + seq;
    const early = await send(p, skip(stepBegan + 10_000));
    expect(early.status).toBe(409);
    expect(early.json.error).toContain('skipped after 30 s');
    // The client's clock says 31 s have passed, but the server has seen none: refused.
    const ahead = await send(p, skip(stepBegan + 31_000));
    expect(ahead.status).toBe(409);
    expect(ahead.json.error).toContain("client's clock");
    now += 40_000;
    expect((await send(p, skip(stepBegan + 31_000))).json.acked_seq).toBe(seq + 2);
  });

  it('refuses events after the session ended (completed or declined), and keeps the log as it was', async () => {
    const config = defaultConfig();
    const { p, s, id } = await started();
    const last = await playSteps(p, s, config, 11);
    expect((await p.call('POST', '/api/session/complete', { last_seq: last })).status).toBe(200);
    const after = await send(p, [event(id, last + 1, { step: 11, phase: 'complete' })]);
    expect(after.status).toBe(409);
    expect(after.json.error).toContain('ended');

    const q = new Participant(server!.url);
    const other = (await q.call('POST', '/api/sessions', {})).json.session_id;
    await send(q, [event(other, 1, { type: 'consent', payload: { agreed: false } }), event(other, 2, { type: 'step_end', payload: { kind: 'consent', reason: 'declined' } })]);
    await expect.poll(async () => (await q.call('GET', '/api/session')).json.status).toBe('declined');
    expect((await send(q, [event(other, 3)])).status).toBe(409);
    expect((await q.call('GET', '/api/session')).json.acked_seq).toBe(2);
  });

  it('refuses implausible timestamps', async () => {
    const { p, id } = await started();
    for (const bad of [{ t_mono: 1e308 }, { t_wall: 1e308 }, { t_wall: -5 }, { t_wall: 1_000 }, { t_mono: -1 }]) {
      const r = await send(p, [event(id, 1, bad)]);
      expect(r.status, JSON.stringify(bad)).toBe(400);
    }
    const ahead = await send(p, [event(id, 1, { t_wall: Date.now() + 2 * 24 * 3600_000 })]);
    expect(ahead.status).toBe(400);
    expect(ahead.json.error).toContain('ahead');
    expect((await send(p, [event(id, 1)])).json.acked_seq).toBe(1);
  });
});

describe('the sequence pool against bare starts', () => {
  it('refuses starts that are not JSON (415); a start leases nothing until the participant consents, and unused starts are ended', async () => {
    let now = 1_790_000_000_000;
    const config = defaultConfig();
    config.assignment.when_exhausted = 'refuse';
    server = await startTestServer({ configPath: writeConfig(config), clock: () => now, startLimitPerMinute: 10_000 });
    const leased = () => (sqliteDb(server!).prepare("SELECT COUNT(*) AS n FROM sequences WHERE status = 'leased'").get() as { n: number }).n;
    for (let i = 0; i < 125; i++) {
      const bare = await fetch(`${server.url}/api/sessions`, { method: 'POST', ...(i % 2 ? { body: 'hello', headers: { 'content-type': 'text/plain' } } : {}) });
      expect(bare.status).toBe(415);
    }
    expect(leased()).toBe(0);
    // 125 JSON starts that send nothing lease nothing either: the sequence is leased at consent.
    const statuses: number[] = [];
    for (let i = 0; i < 125; i++) statuses.push((await new Participant(server.url).call('POST', '/api/sessions', {})).status);
    expect(statuses.every((x) => x === 201)).toBe(true);
    expect(leased()).toBe(0);
    // A real participant consents and gets a sequence; the sweep ends the starts nobody used.
    const real = new Participant(server.url);
    const s = (await real.call('POST', '/api/sessions', {})).json;
    await playSteps(real, s, config, 1);
    expect(s.sequence).toHaveLength(3);
    expect(leased()).toBe(1);
    now += 4 * 60_000;
    expect(await server.nonolab.service.sweepInactive()).toHaveLength(125);
    expect(leased()).toBe(0 + 1);
  });

  it('the default start limit per address is lower (60 a minute)', async () => {
    server = await startTestServer();
    const statuses: number[] = [];
    for (let i = 0; i < 65; i++) statuses.push((await new Participant(server.url).call('POST', '/api/sessions', {})).status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(60);
    expect(statuses.slice(60).every((x) => x === 429)).toBe(true);
  });

  it('validates the participant withdrawal body', async () => {
    const { p } = await started();
    for (const body of ['[1,2,3]', '{"x":1}', '"yes"']) expect((await p.call('POST', '/api/session/withdraw', body)).status).toBe(400);
    expect((await p.call('POST', '/api/session/withdraw', {})).json.withdrawn).toBe(true);
  });

  it('answers //api/... with a JSON 404 like every other API miss', async () => {
    server = await startTestServer();
    for (const path of ['//api/health', '//api/nothing', '///api/session']) {
      const r = await fetch(`${server.url}${path}`);
      expect(r.status, path).toBe(404);
      expect((await r.json()).error).toBe('no such API route');
    }
  });
});

describe('bounded memory', () => {
  it('refuses events too far ahead of the acknowledged seq and holds at most that many per session', async () => {
    const { p, id } = await started();
    const before = retainedHeap();
    let refused = 0;
    // 150 batches of 500 out-of-order events, as one token sent them in the report.
    for (let b = 0; b < 150; b++) {
      const events = Array.from({ length: 500 }, (_, i) => event(id, 2 + b * 500 + i, { payload: { state: 'visible' } }));
      const r = await send(p, events);
      if (r.status === 409) refused++;
      else expect(r.json.acked_seq).toBe(0);
    }
    expect(refused).toBeGreaterThanOrEqual(148);
    const held = server!.nonolab.service.heldEvents();
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(MAX_SEQ_AHEAD);
    // The report saw about 180 MB retained; what may stay is at most MAX_SEQ_AHEAD small events.
    expect(retainedHeap() - before).toBeLessThan(20 * 1024 * 1024);
    // The gap fills: everything held is written in order.
    expect((await send(p, [event(id, 1)])).json.acked_seq).toBe(held + 1);
  });

  it('drops the held events of a session that went idle', async () => {
    let now = 1_790_000_000_000;
    const { p, id } = await started({ clock: () => now });
    await send(p, [event(id, 1)]);
    await send(p, [event(id, 3), event(id, 4)]);
    expect(server!.nonolab.service.heldEvents()).toBe(2);
    now += 6 * 60_000;
    await server!.nonolab.service.sweepInactive();
    expect(server!.nonolab.service.heldEvents()).toBe(0);
    // Never acknowledged, so nothing is lost: the client sends them again.
    expect((await send(p, [event(id, 2), event(id, 3), event(id, 4)])).json.acked_seq).toBe(4);
  });
});

describe('a panel participant back from a second browser', () => {
  it('keeps the first browser\'s token valid, so its unsent events still reach the log', async () => {
    server = await startTestServer();
    const panel = { provider: 'sona', participant_id: '4711' };
    const first = new Participant(server.url);
    const s = (await first.call('POST', '/api/sessions', { mode: 'panel', panel })).json;
    expect((await send(first, [event(s.session_id, 1)])).json.acked_seq).toBe(1);
    const second = new Participant(server.url);
    expect((await second.call('POST', '/api/sessions', { mode: 'panel', panel })).json.session_id).toBe(s.session_id);
    expect(second.cookie).not.toBe(first.cookie);
    // The first browser's outbox still delivers what it held.
    expect((await send(first, [event(s.session_id, 2), event(s.session_id, 3)])).json.acked_seq).toBe(3);
    // The second browser resumes after them.
    expect((await second.call('GET', '/api/session')).json.acked_seq).toBe(3);
    expect((await send(second, [event(s.session_id, 4)])).json.acked_seq).toBe(4);
    // Withdrawal ends every token of the session.
    expect((await second.call('POST', '/api/session/withdraw', {})).status).toBe(200);
    expect((await first.call('GET', '/api/session')).status).toBe(401);
  });
});
