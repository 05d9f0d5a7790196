// The record cannot be bent (issue 31): what an outside client found, each as a test that failed before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Participant, event, playSteps, stampOf, startFirstPuzzle, startTestServer, type TestServer } from '../tests/support/testServer.ts';
import { defaultConfig } from '../tests/support/server.ts';
import { STORES } from '../tests/support/postgres.ts';
import { expandSteps } from '../shared/study/steps.ts';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const T0 = 1_780_000_000_000;

/** The same browser (its cookie) talking to a server started again on the same data. */
function again(p: Participant, url: string): Participant {
  const q = new Participant(url);
  q.cookie = p.cookie;
  return q;
}

/** A session played to the first study puzzle's step (started), and what a test needs to go on from there. */
async function atFirstPuzzle(opts: { clock?: () => number } = {}) {
  server = await startTestServer(opts);
  const config = defaultConfig();
  const { p, id, seq, steps, first } = await startFirstPuzzle(server, config);
  const logFile = join(server.dataDir, 'sessions', `${id}.ndjson`);
  return { p, id, seq, steps, first, stamp: stampOf, logFile, config };
}

describe('an event names its own step (issue 31, 5)', () => {
  it('refuses moves naming another puzzle of the sequence, another phase, another position or a cell off the board; the log is unchanged', async () => {
    const { p, id, seq, steps, first, stamp, logFile } = await atFirstPuzzle();
    const before = readFileSync(logFile, 'utf8');
    const second = steps.find((x) => x.kind === 'puzzle' && x.position === 2)!;
    const fill = (row: number, col: number) => ({ move: { type: 'fill', row, col } });
    const tries = [
      { ...stamp(first), puzzle_id: second.puzzle_id, type: 'move', payload: fill(0, 0) },
      { ...stamp(first), phase: 'warmup', type: 'move', payload: fill(0, 0) },
      { ...stamp(first), position: 2, type: 'move', payload: fill(0, 0) },
      { ...stamp(first), puzzle_id: null, position: null, type: 'move', payload: fill(0, 0) },
      { ...stamp(first), type: 'move', payload: fill(49, 0) },
      { ...stamp(first), type: 'move', payload: fill(0, 10) },
      { ...stamp(first), type: 'move', payload: { move: { type: 'stroke', state: 'filled', cells: [[0, 0], [0, 1], [0, 12]] } } },
      { ...stamp(first), phase: 'warmup', type: 'visibility', payload: { state: 'hidden' } },
    ];
    const answers = [];
    for (const t of tries) {
      const r = await p.call('POST', '/api/session/events', { events: [event(id, seq + 1, t)] });
      answers.push([r.status, r.json.error]);
    }
    for (const [status] of answers) expect(status).toBe(409);
    expect(answers[0][1]).toContain(`names puzzle '${second.puzzle_id}'`);
    expect(answers[1][1]).toContain("names phase 'warmup'");
    expect(answers[2][1]).toContain('names position 2');
    expect(answers[4][1]).toContain('row 50, column 1, off the 10x10 board');
    expect(readFileSync(logFile, 'utf8')).toBe(before);
    // The step's own puzzle and cells are taken as ever; a page record may leave the puzzle out.
    const ok = await p.call('POST', '/api/session/events', {
      events: [event(id, seq + 1, { ...stamp(first), type: 'move', payload: fill(9, 9) }), event(id, seq + 2, { ...stamp(first), puzzle_id: null, position: null, type: 'visibility', payload: { state: 'hidden' } })],
    });
    expect(ok.json.acked_seq).toBe(seq + 2);
  });
});

describe('timed rules and a client clock that runs backwards (issue 31, 3)', () => {
  it('a step_end backdated by 120 s does not let the next puzzle be skipped at once', async () => {
    let now = T0;
    server = await startTestServer({ clock: () => now });
    const config = defaultConfig();
    const p = new Participant(server.url);
    const s = (await p.call('POST', '/api/sessions', {})).json;
    const id = s.session_id as string;
    // Honest to the pre-survey's answers (step 3), two minutes of server time later.
    let seq = await playSteps(p, s, config, 3);
    now += 120_000;
    const steps = expandSteps(config.phases, s.sequence);
    const survey = steps[3];
    const puzzle = steps[4];
    const at = stampOf;
    const wall = T0 + 120_000; // the client's "now"
    const phase = config.phases.find((ph) => ph.id === survey.phase_id)!;
    const { validAnswers } = await import('../tests/support/testServer.ts');
    const events = [
      event(id, ++seq, { ...at(survey), t_wall: wall - 1_000, type: 'step_start', payload: { kind: 'survey' } }),
      event(id, ++seq, { ...at(survey), t_wall: wall - 500, type: 'survey_submit', payload: { survey_id: phase.id, answers: validAnswers(phase) } }),
      event(id, ++seq, { ...at(survey), t_wall: wall - 120_000, type: 'step_end', payload: { kind: 'survey', reason: 'done' } }),
      event(id, ++seq, { ...at(puzzle), t_wall: wall, type: 'step_start', payload: { kind: 'puzzle' } }),
    ];
    expect((await p.call('POST', '/api/session/events', { events })).status).toBe(200);
    now += 25;
    const skip = await p.call('POST', '/api/session/events', { events: [event(id, seq + 1, { ...at(puzzle), t_wall: wall + 25, type: 'step_end', payload: { kind: 'puzzle', reason: 'skipped' } })] });
    expect(skip.status).toBe(409);
    expect(skip.json.error).toContain('cannot end');
    // 30 s on, by both clocks, the skip is taken.
    now += 30_000;
    const later = await p.call('POST', '/api/session/events', { events: [event(id, seq + 1, { ...at(puzzle), t_wall: wall + 30_100, type: 'step_end', payload: { kind: 'puzzle', reason: 'skipped' } })] });
    expect(later.json.acked_seq).toBe(seq + 1);
  });
});

describe.each(STORES)('on %s', (store) => {
  describe('no token before its start record is durable (issue 31, 2)', () => {
    it('two starts at once for one panel participant: each 201 comes after the session_start record is in the log', async () => {
      // The first start pauses after its row is committed and before its record is written: the window in which the
      // second start found the row and answered at once.
      let firstPaused: (() => void) | null = null;
      server = await startTestServer({
        store,
        crashPoint: async (point) => {
          if (point === 'start:row' && !firstPaused) await new Promise<void>((r) => ((firstPaused = r), setTimeout(r, 300)));
        },
      });
      const panel = { provider: 'prolific', participant_id: 'PIDtwotabs', study_id: 'S', session_id: 'X' };
      const logOf = async (id: string) => (await server!.nonolab.service.recordsOf(id)).map((r) => r.type);
      const seen: string[][] = [];
      const start = async () => {
        const r = await new Participant(server!.url).call('POST', '/api/sessions', { mode: 'panel', panel });
        seen.push(r.status === 201 ? await logOf(r.json.session_id) : [`status ${r.status}`]);
        return r;
      };
      const [a, b] = await Promise.all([start(), start()]);
      expect([a.status, b.status]).toEqual([201, 201]);
      expect(a.json.session_id).toBe(b.json.session_id);
      for (const types of seen) expect(types).toContain('session_start');
    });
  });

  describe('an abandoned session that gave nothing away comes back (issue 31, 4)', () => {
    it('a swept session whose sequence nobody took, and a start swept before consent, go on; one whose sequence went to another gets 410', async () => {
      let now = T0;
      const config = defaultConfig();
      config.timing = { ...config.timing!, inactivity_minutes: 0.25 };
      const { writeConfig } = await import('../tests/support/server.ts');
      server = await startTestServer({ store, clock: () => now, configPath: writeConfig(config) });
      const start = async () => {
        const p = new Participant(server!.url);
        const s = (await p.call('POST', '/api/sessions', {})).json;
        return { p, s, id: s.session_id as string };
      };
      const consented = await start();
      const seqA = await playSteps(consented.p, consented.s, config, 1);
      const given = await start();
      const seqB = await playSteps(given.p, given.s, config, 1);
      const idle = await start(); // never sends an event
      now += 20 * 60_000;
      expect((await server.nonolab.service.sweepInactive()).sort()).toEqual([consented.id, given.id, idle.id].sort());
      // The sequence `given` held goes to another participant meanwhile (as a new consent would take it).
      const sequenceOf = async (id: string) => (await server!.nonolab.store.session(id))!.sequence_id;
      const other = await start();
      const takenId = await sequenceOf(given.id);
      await server.nonolab.store.transaction(async (tx) => tx.leaseSequenceTo(takenId, other.id));
      const visible = (id: string, seq: number) => ({ events: [event(id, seq, { step: 0, type: 'visibility', payload: { state: 'visible' } })] });
      const back = await consented.p.call('POST', '/api/session/events', visible(consented.id, seqA + 1));
      expect(back.status).toBe(200);
      expect(back.json.acked_seq).toBe(seqA + 1);
      expect((await consented.p.call('GET', '/api/session')).json.status).toBe('active');
      const lease = await server.nonolab.store.sequence(await sequenceOf(consented.id));
      expect([lease?.status, lease?.session_id]).toEqual(['leased', consented.id]);
      const gone = await given.p.call('POST', '/api/session/events', visible(given.id, seqB + 1));
      expect(gone.status).toBe(410);
      expect(gone.json.error).toContain('another participant');
      // The start swept before it sent anything consents later and gets a sequence of its own.
      const late = await playSteps(idle.p, idle.s, config, 1);
      expect(late).toBeGreaterThan(0);
      expect(idle.s.sequence.length).toBe(3);
    });
  });
});

/**
 * A session of `count` events, the server stopped, line `line` of its log (line 0 is session_start, line k event seq
 * k) replaced by `damage`, the server started again on the data: what a test of the repaired log needs.
 */
async function repairedLog(count: number, line: number, damage: (text: string) => string) {
  server = await startTestServer();
  const dataDir = server.dataDir;
  const first = new Participant(server.url);
  const id = (await first.call('POST', '/api/sessions', {})).json.session_id as string;
  const events = Array.from({ length: count }, (_, i) => event(id, i + 1));
  expect((await first.call('POST', '/api/session/events', { events })).json.acked_seq).toBe(count);
  await server.close();
  const file = join(dataDir, 'sessions', `${id}.ndjson`);
  const lines = readFileSync(file, 'utf8').split('\n');
  expect(JSON.parse(lines[line]).seq).toBe(line);
  writeFileSync(file, [...lines.slice(0, line), damage(lines[line]), ...lines.slice(line + 1)].join('\n'));
  server = await startTestServer({ dataDir });
  /** The client seqs of the file, in file order. */
  const seqs = () =>
    readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { origin: string; seq?: number })
      .filter((r) => r.origin === 'client')
      .map((r) => r.seq);
  return { id, events, dataDir, seqs, p: again(first, server.url) };
}

describe('resending after a repaired log (issue 31, 1)', () => {
  it('takes each seq once and keeps the file in seq order: readers see every event once', async () => {
    const { id, events, dataDir, seqs, p: client } = await repairedLog(20, 4, (l) => l.slice(0, 30) + '#garbage#');
    let p = client;
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(3);
    const all = Array.from({ length: 20 }, (_, i) => i + 1);
    // The client resends from the acknowledged seq, as the docs tell it to.
    const resent = await p.call('POST', '/api/session/events', { events: events.slice(3) });
    expect(resent.status).toBe(200);
    expect(resent.json.acked_seq).toBe(20);
    expect(seqs()).toEqual(all);
    // And again (a retry of the same batch), and the next event: appended once, after the rest.
    expect((await p.call('POST', '/api/session/events', { events: events.slice(3) })).json.acked_seq).toBe(20);
    expect((await p.call('POST', '/api/session/events', { events: [event(id, 21)] })).json.acked_seq).toBe(21);
    expect(seqs()).toEqual([...all, 21]);
    expect((await server!.nonolab.service.recordsOf(id)).filter((r) => r.origin === 'client').map((r) => r.seq)).toEqual([...all, 21]);
    // After a restart the log reads the same, acknowledged to 21.
    await server!.close();
    server = await startTestServer({ dataDir });
    p = again(p, server.url);
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(21);
    expect(seqs()).toEqual([...all, 21]);
  });

  it('a resend of the gap alone brings the acknowledged seq to the end of what the log held', async () => {
    const { events, seqs, p } = await repairedLog(10, 6, () => '{not json');
    expect((await p.call('GET', '/api/session')).json.acked_seq).toBe(5);
    expect((await p.call('POST', '/api/session/events', { events: [events[5]] })).json.acked_seq).toBe(10);
    expect(seqs()).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });
});

describe('the start request (issue 31, docs)', () => {
  it('defaults mode to general and refuses unknown keys, naming them; nothing is started', async () => {
    server = await startTestServer();
    const ok = await new Participant(server.url).call('POST', '/api/sessions', {});
    expect(ok.status).toBe(201);
    const junk = await new Participant(server.url).call('POST', '/api/sessions', { mod: 'kiosk', junk: 'x'.repeat(1000) });
    expect(junk.status).toBe(400);
    expect(JSON.stringify(junk.json)).toContain('mod');
    expect((await server.nonolab.store.sessions()).length).toBe(1);
  });
});
