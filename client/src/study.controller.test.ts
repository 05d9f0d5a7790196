// The participant controller (study.ts) against a real server: boot starts or resumes, dispatch logs then applies a
// move, advance ends a step and enters the next. The page around it is the smallest that study.ts touches: a
// localStorage, a window and document that take listeners, and fetch aimed at the test server with a cookie jar.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, sessionRecords, type TestServer } from '../../tests/support/testServer.ts';
import { replayMoves, boardRows } from '../../shared/game/board.ts';
import type { Move } from '../../shared/schema/move.ts';
import { defaultConfig } from '../../tests/support/server.ts';

type Study = typeof import('./study.ts');

let server: TestServer;
const realFetch = globalThis.fetch;
/** The browser: its storage and cookie outlive a reload (a fresh import of study.ts); `offline` cuts the events route. */
const browser = { storage: new Map<string, string>(), cookie: '', offline: false };

function installPage(): void {
  const g = globalThis as Record<string, unknown>;
  g.localStorage = { getItem: (k: string) => browser.storage.get(k) ?? null, setItem: (k: string, v: string) => void browser.storage.set(k, String(v)) };
  g.window = { addEventListener() {}, innerWidth: 1280, innerHeight: 800, scrollTo() {} };
  g.document = { addEventListener() {}, visibilityState: 'visible' };
  g.screen = {};
  g.navigator = { userAgent: 'nonolab unit test', maxTouchPoints: 0 };
  g.location = { search: '' };
  g.BroadcastChannel = undefined; // one window here: the takeover rule has its own end-to-end test
  g.fetch = async (path: string, init: RequestInit = {}) => {
    if (browser.offline && path.endsWith('/events')) throw new TypeError('fetch failed');
    const res = await realFetch(new URL(path, server.url), { ...init, headers: { ...(init.headers as Record<string, string>), cookie: browser.cookie } });
    const set = res.headers.get('set-cookie');
    if (set) browser.cookie = set.split(';')[0];
    return res;
  };
}

/** Load the page: a fresh controller (module state and all), booted. */
/** Wait (polling every 5 ms) until the condition holds; after 15 s fail, saying where the controller is. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) {
      const s = current?.useStudy.getState();
      throw new Error(`waited 15 s; the controller: ${JSON.stringify({ status: s?.status, error: s?.error, step: s?.step, kind: s?.steps[s.step]?.kind, busy: s?.busy, saveStatus: s?.saveStatus })}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

let current: Study | null = null;
async function load(): Promise<Study> {
  vi.resetModules();
  const study = await import('./study.ts');
  // The puzzle screen's chunk hands over its check and hint requests (PuzzleView does this when it loads).
  study.registerBoardRequests((await import('./board/requests.ts')).boardRequests);
  await study.boot();
  return (current = study);
}

const clientRecords = (id: string) => sessionRecords(server.dataDir, id).filter((r) => r.origin === 'client') as unknown as { type: string; seq: number; step: number; payload?: any }[];
const state = (study: Study) => study.useStudy.getState();

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  await server.close();
});
beforeEach(() => {
  browser.storage.clear();
  browser.cookie = '';
  browser.offline = false;
  installPage();
});
afterEach(async () => {
  // The page's outbox sends on by itself: let it finish before the next test's browser takes over fetch and cookie.
  browser.offline = false;
  const study = current;
  if (study) await until(() => state(study).saveStatus === 'saved' || state(study).status === 'error');
  current = null;
});

/** Walk from consent to the warmup board, as the screens would. */
async function toWarmup(study: Study): Promise<void> {
  study.answerConsent(true);
  await until(() => state(study).steps[state(study).step]?.kind === 'tutorial');
  study.advance('done');
  await until(() => state(study).steps[state(study).step]?.kind === 'warmup');
}

describe('boot', () => {
  it('starts a session on a first visit, at its first step, and the server holds the page start and the step start', async () => {
    const study = await load();
    const s = state(study);
    expect(s.status).toBe('running');
    expect(s.step).toBe(0);
    expect(s.steps[0]).toMatchObject({ index: 0, kind: 'consent' });
    const id = s.session!.session_id;
    await until(() => state(study).saveStatus === 'saved' && clientRecords(id).length === 2);
    expect(clientRecords(id).map((r) => [r.seq, r.type])).toEqual([
      [1, 'client_start'],
      [2, 'step_start'],
    ]);
  });

  it('resumes after a reload: same session and step, the board rebuilt from acknowledged and still-pending moves', async () => {
    let study = await load();
    const id = state(study).session!.session_id;
    await toWarmup(study);
    study.dispatch({ type: 'fill', row: 0, col: 0 }, 'mouse');
    study.dispatch({ type: 'cross', row: 1, col: 1 }, 'mouse');
    await until(() => state(study).saveStatus === 'saved');
    // Offline now: these two stay in the browser's outbox only.
    browser.offline = true;
    study.dispatch({ type: 'fill', row: 2, col: 2 }, 'mouse');
    study.dispatch({ type: 'undo' }, 'mouse');
    await until(() => state(study).saveStatus === 'offline');
    const shown = boardRows(state(study).board!.grid);
    const step = state(study).step;

    study = await load(); // a reload, still offline
    expect(state(study).session!.session_id).toBe(id);
    expect(state(study).step).toBe(step);
    expect(boardRows(state(study).board!.grid)).toEqual(shown);
    expect(state(study).movesByStep[step].map((m) => m.type)).toEqual(['fill', 'cross', 'fill', 'undo']);

    browser.offline = false;
    study.advance('done');
    await until(() => clientRecords(id).some((r) => r.type === 'step_end' && r.step === step));
    const seqs = clientRecords(id).map((r) => r.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // every event once, in order, across the reload
  });
});

describe('dispatch', () => {
  it('logs each move (persisted before it is sent) and applies it: the board is the replay of the logged moves', async () => {
    const study = await load();
    const id = state(study).session!.session_id;
    expect(state(study).board).toBeNull();
    study.dispatch({ type: 'fill', row: 0, col: 0 }, 'mouse'); // no board on the consent step: nothing happens
    await toWarmup(study);
    const width = state(study).board!.grid.width;
    const height = state(study).board!.grid.height;
    const moves: Move[] = [
      { type: 'fill', row: 0, col: 0 },
      { type: 'stroke', state: 'crossed', cells: [[1, 0], [1, 1], [1, 2]] },
      { type: 'undo' },
      { type: 'cross', row: 2, col: 1 },
      { type: 'reset' },
      { type: 'undo' },
    ];
    for (const move of moves) {
      const before = browser.storage.get(`nonolab.${id}.queue`) ?? '[]';
      study.dispatch(move, 'keyboard');
      const queued = JSON.parse(browser.storage.get(`nonolab.${id}.queue`)!) as { type: string; payload: { move: Move } }[];
      expect(queued.length).toBeGreaterThan(JSON.parse(before).length);
      expect(queued.at(-1)!.payload.move).toEqual(move);
    }
    expect(boardRows(state(study).board!.grid)).toEqual(boardRows(replayMoves(width, height, moves).grid));
    expect(state(study).inputKind).toBe('keyboard');
    await until(() => state(study).saveStatus === 'saved');
    const logged = clientRecords(id).filter((r) => r.type === 'move');
    expect(logged.map((r) => r.payload.move)).toEqual(moves);
  });

  it('takes no move while the controller waits for the server (busy)', async () => {
    const study = await load();
    await toWarmup(study);
    study.useStudy.setState({ busy: 'check' });
    const board = state(study).board;
    study.dispatch({ type: 'fill', row: 0, col: 0 }, 'mouse');
    expect(state(study).board).toBe(board);
    expect(state(study).movesByStep[state(study).step] ?? []).toEqual([]);
  });
});

describe('advance', () => {
  it('ends the step with its reason, enters the next once (its start logged once), and keeps a puzzle\'s outcome', async () => {
    const study = await load();
    const id = state(study).session!.session_id;
    await toWarmup(study);
    const warmup = state(study).step;
    study.advance('skipped');
    expect(state(study).step).toBe(warmup + 1);
    expect(state(study).board).toBeNull(); // the survey shows no board
    await until(() => state(study).saveStatus === 'saved');
    const records = clientRecords(id);
    expect(records.find((r) => r.type === 'step_end' && r.step === warmup)?.payload).toEqual({ kind: 'warmup', reason: 'skipped' });
    expect(records.filter((r) => r.type === 'step_start').map((r) => r.step)).toEqual([0, 1, 2, 3]);

    // On to the first puzzle (the survey's answers as the screen would send them), then skip it.
    const survey = state(study).session!.study.phases.find((p) => p.kind === 'survey')!;
    const { surveyAnswers } = await import('../../shared/study/phases/simulate.ts');
    study.submitSurvey(survey.id, surveyAnswers(survey as never) as never);
    await until(() => state(study).steps[state(study).step]?.kind === 'puzzle' && state(study).busy === null);
    const puzzle = state(study).steps[state(study).step];
    expect(state(study).board).not.toBeNull();
    // Solve it and submit: the server's check says solved, and the controller advances by itself.
    const solution = defaultConfig().puzzles.find((p) => p.id === puzzle.puzzle_id)!.solution!;
    solution.forEach((row, r) => [...row].forEach((ch, c) => ch === '#' && study.dispatch({ type: 'fill', row: r, col: c }, 'mouse')));
    study.dispatch({ type: 'submit' }, 'mouse');
    await until(() => state(study).step === puzzle.index + 1);
    expect(state(study).outcomes[puzzle.puzzle_id!]).toBe('solved');
    expect(state(study).steps[state(study).step]).toMatchObject({ kind: 'rating', puzzle_id: puzzle.puzzle_id });
    await until(() => state(study).saveStatus === 'saved');
    const ends = clientRecords(id).filter((r) => r.type === 'step_end').map((r) => [r.step, r.payload.reason]);
    expect(ends.slice(-2)).toEqual([
      [puzzle.index - 1, 'done'],
      [puzzle.index, 'solved'],
    ]);
  });
});
