// End to end: the experimenter dashboard in real Chromium against the real server. Two participants (driven over the
// participant HTTP API) update live; the live mirror follows a board; a finished attempt replays to its final board;
// a withdrawal empties store and pool; a participant's <script> answer stays inert; nothing answers without a login.
// On both stores (SQLite + NDJSON, PostgreSQL): the dashboard reads, follows and deletes what the store holds.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { RunningServer } from '../support/server.ts';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { Participant, event, validAnswers } from '../support/testServer.ts';
import { expandSteps } from '../../shared/study/steps.ts';
import { nonogramsOnly, type StudyConfig } from '../../shared/schema/config.ts';
import { DEFAULT_EFFECT, botSession, type BotSession } from '../../analysis/simulate/bot.ts';
import { createRng } from '../../shared/random.ts';
import { boardRows, replayMoves } from '../../shared/game/board.ts';
import type { Move } from '../../shared/schema/move.ts';

const PASSWORD = 'lab-password-for-tests';
const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">`;
/** Set NONOLAB_SCREENSHOTS=/some/dir to keep screenshots of each view. */
const shots = process.env.NONOLAB_SCREENSHOTS;

let server: RunningServer;
let config: StudyConfig;
let page: Page;

async function shot(name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
}

/** A participant driven over the HTTP API: each event 700 ms of client time after the last, unless told. */
class Bot {
  p: Participant;
  id = '';
  sequence: string[] = [];
  seq = 0;
  t = 1_000;
  constructor(base: string) {
    this.p = new Participant(base);
  }
  async start(label: string) {
    const res = await this.p.call('POST', '/api/sessions', { mode: 'kiosk', label });
    expect(res.status).toBe(201);
    this.id = res.json.session_id;
    this.sequence = res.json.sequence;
    return this;
  }
  /** The sequence, leased when the participant consented. */
  async resume() {
    this.sequence = (await this.p.call('GET', '/api/session')).json.sequence;
  }
  ev(overrides: Record<string, unknown>, gap = 700) {
    this.t += gap;
    this.seq += 1;
    return event(this.id, this.seq, { t_mono: this.t, t_wall: 1_780_000_000_000 + this.t, ...overrides });
  }
  async send(...events: Record<string, unknown>[]) {
    const res = await this.p.call('POST', '/api/session/events', { events });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  }
  /** Play the steps before `to` as the client would (consent given, valid answers with `answers` among them). */
  async playTo(to: number, answers: Record<string, unknown> = {}) {
    for (const step of expandSteps(config.phases, this.sequence).slice(0, to)) {
      const at = { step: step.index, phase: step.phase_id, puzzle_id: step.puzzle_id, position: step.position };
      const phase = config.phases.find((ph) => ph.id === step.phase_id)!;
      const own =
        step.kind === 'consent'
          ? [this.ev({ ...at, type: 'consent', payload: { agreed: true } })]
          : step.kind === 'survey'
            ? [this.ev({ ...at, type: 'survey_submit', payload: { survey_id: phase.id, answers: { ...validAnswers(phase), ...answers } } })]
            : [];
      await this.send(this.ev({ ...at, type: 'step_start', payload: { kind: step.kind } }), ...own, this.ev({ ...at, type: 'step_end', payload: { kind: step.kind, reason: 'done' } }));
      if (step.kind === 'consent') await this.resume();
    }
  }
  onPuzzle(position: number) {
    return { step: 4 + 2 * (position - 1), phase: 'puzzles', puzzle_id: this.sequence[position - 1], position };
  }
}

function solutionOf(id: string): string[] {
  return config.puzzles.find((p) => p.id === id)!.solution!;
}

/** Strokes that fill a solution run by run. */
function solvingMoves(solution: string[]) {
  const moves: { type: 'stroke'; state: 'filled'; cells: [number, number][] }[] = [];
  solution.forEach((row, r) => {
    for (let c = 0; c < row.length; ) {
      if (row[c] !== '#') {
        c++;
        continue;
      }
      const cells: [number, number][] = [];
      while (row[c] === '#') cells.push([r, c++]);
      moves.push({ type: 'stroke', state: 'filled', cells });
    }
  });
  return moves;
}

async function boardStates(testId: string, height: number, width: number): Promise<string[]> {
  return page.evaluate(
    ({ testId, height, width }) => {
      const rows: string[] = [];
      for (let r = 0; r < height; r++) {
        let line = '';
        for (let c = 0; c < width; c++) {
          const s = document.querySelector(`[data-testid="${testId}-cell-${r}-${c}"]`)?.getAttribute('data-state');
          line += s === 'filled' ? '#' : s === 'crossed' ? 'x' : '.';
        }
        rows.push(line);
      }
      return rows;
    },
    { testId, height, width },
  );
}

// The bots below replay simulated sessions faster than real time: their skips are judged by their own clock.
const tweak = (c: StudyFixture['config']) => {
  c.timing = { ...c.timing, trust_client_clock: true };
};

describe.each(STORES)('the experimenter dashboard (%s)', (store) => {
  const study = studyFixture(tweak, { store, env: { NONOLAB_ADMIN_PASSWORD: PASSWORD } });
  beforeAll(async () => {
    server = study.server;
    config = study.config;
    page = await study.browser.newPage({ viewport: { width: 1280, height: 900 } });
  });

  it('answers 401 on every dashboard API without a login and shows the login page', async () => {
    for (const path of ['/me', '/overview', '/sessions', '/live', '/pool', '/exports', '/exports/events', '/sessions/sx/events', '/sessions/sx/live']) {
      const res = await fetch(`${server.url}/api/admin${path}`);
      expect(res.status, path).toBe(401);
    }
    for (const path of ['/sessions/sx/withdraw', '/sessions/sx/flag', '/sessions/sx/end', '/sessions/sx/extend']) {
      const res = await fetch(`${server.url}/api/admin${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, path).toBe(401);
    }
    await page.goto(`${server.url}/dashboard`);
    await page.getByTestId('login-password').fill('not it');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toContain('wrong password');
    await shot('0-login');
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('sessions-table').waitFor();
    await expect.poll(() => page.getByTestId('live-connection').textContent()).toContain('live');
  });

  it('follows two bot participants playing whole sessions at once, and replays a bot attempt to its final board', async () => {
    const effect = { ...DEFAULT_EFFECT, metric: Object.fromEntries(config.puzzles.map((p) => [p.id, 0])) };
    const start = async (seed: number) => {
      const p = new Participant(server.url);
      const state = (await p.call('POST', '/api/sessions', { mode: 'general' })).json;
      const session = (sequence: string[]) =>
        botSession({ config, session_id: state.session_id, sequence, skill: seed === 1 ? -1 : 1, rng: createRng(seed), start_ms: 1_780_000_000_000, effect });
      // The sequence is leased at consent: play up to it with a stand-in (nothing before the puzzles depends on it).
      const standIn = session(config.puzzles.slice(0, 3).map((q) => q.id));
      const consented = standIn.events.findIndex((e) => e.type === 'step_end' && e.payload.kind === 'consent') + 1;
      expect((await p.call('POST', '/api/session/events', { events: standIn.events.slice(0, consented) })).json.acked_seq).toBe(consented);
      const bot = session((await p.call('GET', '/api/session')).json.sequence);
      expect(bot.events.slice(0, consented)).toEqual(standIn.events.slice(0, consented));
      return { p, bot, sent: consented, call: 0 };
    };
    const bots = [await start(1), await start(2)];
    for (const { bot } of bots) await page.getByTestId(`session-row-${bot.session_id}`).waitFor();

    /** One turn of a bot: its next server call if due, else its next small batch of events. False when done. */
    const turn = async (b: { p: Participant; bot: BotSession; sent: number; call: number }): Promise<boolean> => {
      const due = b.bot.calls[b.call];
      if (due && b.sent >= (due.type === 'complete' ? b.bot.events.length : due.after_seq)) {
        b.call++;
        const res =
          due.type === 'check'
            ? await b.p.call('POST', '/api/session/check', due.request)
            : due.type === 'hint'
              ? await b.p.call('POST', '/api/session/hint', due.request)
              : await b.p.call('POST', '/api/session/complete', { last_seq: due.last_seq });
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        return true;
      }
      const limit = due ? (due.type === 'complete' ? b.bot.events.length : due.after_seq) : b.bot.events.length;
      if (b.sent >= limit) return false;
      const batch = b.bot.events.slice(b.sent, Math.min(limit, b.sent + 20));
      const res = await b.p.call('POST', '/api/session/events', { events: batch });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      b.sent += batch.length;
      return true;
    };
    // Interleave the two bots; part-way through, both show progress in the table at the same time.
    let sawBoth = false;
    for (;;) {
      const moved = [await turn(bots[0]), await turn(bots[1])];
      if (!moved.some(Boolean)) break;
      if (!sawBoth && bots.every((b) => b.sent >= b.bot.events.length / 2)) {
        for (const { bot } of bots) await expect.poll(async () => Number(await page.getByTestId(`moves-${bot.session_id}`).textContent())).toBeGreaterThan(0);
        sawBoth = true;
      }
    }
    expect(sawBoth).toBe(true);
    await shot('1a-bots');
    for (const { bot } of bots) {
      const row = page.getByTestId(`session-row-${bot.session_id}`);
      await expect.poll(() => row.getAttribute('data-state')).toBe('finished');
      // Study puzzles only (they have a position): the tutorial's practice submit is counted apart (issue 32).
      const hints = bot.calls.filter((c) => c.type === 'hint' && c.hint !== null && c.request.position !== null).length;
      const wrong = bot.calls.filter((c) => c.type === 'check' && !c.solved && c.request.position !== null).length;
      expect(await page.getByTestId(`hints-${bot.session_id}`).textContent()).toBe(String(hints));
      expect(await page.getByTestId(`wrong-${bot.session_id}`).textContent()).toBe(String(wrong));
    }

    // The first bot's first study puzzle, replayed to its end, is the board its moves make.
    const { bot } = bots[0];
    const step = bot.events.find((e) => e.type === 'step_start' && e.payload.kind === 'puzzle')!.step;
    const moves = bot.events.filter((e) => e.type === 'move' && e.step === step).map((e) => (e.payload as { move: Move }).move);
    const puzzle = nonogramsOnly(config.puzzles, 'this test').find((p) => p.id === bot.events.find((e) => e.step === step)!.puzzle_id)!;
    const want = boardRows(replayMoves(puzzle.width, puzzle.height, moves).grid).map((r) => r.replaceAll('?', '.'));
    await page.goto(`${server.url}/dashboard#/session/${bot.session_id}`);
    await expect.poll(() => page.locator('[data-testid^="replay-"]').count()).toBeGreaterThanOrEqual(5); // tutorial, warmup, three puzzles
    await shot('1b-bot-session');
    await page.goto(`${server.url}/dashboard#/session/${bot.session_id}/replay/${step}`);
    await page.getByTestId('replay').waitFor();
    await page.getByTestId('to-end').click();
    expect(await boardStates('replay-board', puzzle.height, puzzle.width)).toEqual(want);
    await page.goto(`${server.url}/dashboard#/`);
    await page.getByTestId('sessions-table').waitFor();
  });

  it('watches two participants live, mirrors a board, replays the finished attempt, shows answers inert, and withdraws', async () => {
    const a = await new Bot(server.url).start('P01');
    const b = await new Bot(server.url).start('P02');
    const row = (bot: Bot) => page.getByTestId(`session-row-${bot.id}`);
    await row(a).waitFor();
    await row(b).waitFor();

    // Both move on to their first puzzle; each move shows up in the table without a reload.
    await a.playTo(4, { academic_program: HOSTILE, nonogram_skill: 4 });
    await b.playTo(4);
    await a.send(a.ev({ ...a.onPuzzle(1), type: 'step_start', payload: { kind: 'puzzle' } }), a.ev({ ...a.onPuzzle(1), type: 'move', payload: { move: { type: 'fill', row: 0, col: solutionOf(a.sequence[0])[0].indexOf('.') } } }));
    await b.send(b.ev({ ...b.onPuzzle(1), type: 'step_start', payload: { kind: 'puzzle' } }));
    await b.send(b.ev({ ...b.onPuzzle(1), type: 'move', payload: { move: { type: 'cross', row: 0, col: 0 } } }), b.ev({ ...b.onPuzzle(1), type: 'move', payload: { move: { type: 'cross', row: 1, col: 0 } } }));
    await expect.poll(() => page.getByTestId(`moves-${a.id}`).textContent()).toBe('1');
    await expect.poll(() => page.getByTestId(`moves-${b.id}`).textContent()).toBe('2');
    await expect.poll(() => page.getByTestId(`puzzle-${b.id}`).textContent()).toBe(`${b.sequence[0]} @1`);
    // B's page goes hidden: the row turns idle and stands out.
    await b.send(b.ev({ ...b.onPuzzle(1), type: 'visibility', payload: { state: 'hidden' } }));
    await expect.poll(() => row(b).getAttribute('data-state')).toBe('idle');
    expect(await row(a).getAttribute('data-state')).toBe('active');
    await shot('1-live');

    // The live mirror of A: it follows each move as the server makes it durable.
    await row(a).click();
    await page.getByTestId('session-view').waitFor();
    const solution = solutionOf(a.sequence[0]);
    const wrongCol = solution[0].indexOf('.');
    await expect.poll(() => page.getByTestId(`mirror-cell-0-${wrongCol}`).getAttribute('data-state')).toBe('filled');
    expect(await page.getByTestId(`mirror-cell-0-${wrongCol}`).getAttribute('data-wrong')).toBe('true');
    await a.send(a.ev({ ...a.onPuzzle(1), type: 'move', payload: { move: { type: 'submit' } } }));
    const check = await a.p.call('POST', '/api/session/check', { puzzle_id: a.sequence[0], position: 1, rows: solution.map((r, i) => (i === 0 ? r.slice(0, wrongCol) + '#' + r.slice(wrongCol + 1) : '?'.repeat(r.length))) });
    expect(check.json.solved).toBe(false);
    await a.send(a.ev({ ...a.onPuzzle(1), type: 'move', payload: { move: { type: 'undo' } } }, 5_000)); // a long pause before it
    await expect.poll(() => page.getByTestId(`mirror-cell-0-${wrongCol}`).getAttribute('data-state')).toBe('unknown');
    const moves = solvingMoves(solution);
    await a.send(...moves.map((m) => a.ev({ ...a.onPuzzle(1), type: 'move', payload: { move: m } })));
    await expect.poll(() => boardStates('mirror', solution.length, solution[0].length)).toEqual(solution);
    await shot('2-mirror');
    await a.send(a.ev({ ...a.onPuzzle(1), type: 'move', payload: { move: { type: 'submit' } } }));
    expect((await a.p.call('POST', '/api/session/check', { puzzle_id: a.sequence[0], position: 1, rows: solution })).json.solved).toBe(true);
    await a.send(a.ev({ ...a.onPuzzle(1), type: 'step_end', payload: { kind: 'puzzle', reason: 'solved' } }));
    await a.send(a.ev({ ...a.onPuzzle(1), step: 5, type: 'step_start', payload: { kind: 'rating' } }), a.ev({ ...a.onPuzzle(1), step: 5, type: 'rating', payload: { difficulty: 2, guessing: 'Never' } }));
    await page.getByTestId('mirror-none').waitFor();

    // The participant's hostile answer is shown as text: no script ran, no element was made.
    const answer = page.getByTestId('answer-academic_program');
    await expect.poll(() => answer.textContent()).toBe(HOSTILE);
    expect(await answer.evaluate((el) => el.children.length)).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // Replay the finished attempt: the timeline marks the long pause and the wrong move; the end is the final board.
    await page.getByTestId('replay-4').click();
    await page.getByTestId('replay').waitFor();
    await expect.poll(() => page.getByTestId('replay-position').textContent()).toContain(`0 / ${moves.length + 4}`);
    expect(await page.locator('.tl-pause').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.tl-move.error').count()).toBe(1);
    await page.getByTestId('next').click();
    expect(await page.getByTestId(`replay-board-cell-0-${wrongCol}`).getAttribute('data-wrong')).toBe('true');
    await page.getByTestId('speed').selectOption('32');
    await page.getByTestId('play').click();
    await expect.poll(() => page.getByTestId('replay-position').textContent(), { timeout: 15_000 }).toContain(`${moves.length + 4} / ${moves.length + 4}`);
    expect(await boardStates('replay-board', solution.length, solution[0].length)).toEqual(solution);
    await page.getByTestId('scrub').fill('0');
    await expect.poll(() => page.getByTestId('replay-position').textContent()).toContain(`0 / ${moves.length + 4}`);
    await page.getByTestId('to-end').click();
    expect(await boardStates('replay-board', solution.length, solution[0].length)).toEqual(solution);
    await shot('3-replay');

    // Withdraw B: the confirmation names what goes; afterwards nothing of B is in the store (file, rows) or the pool.
    const poolBefore = await (await page.evaluate(async () => (await fetch('/api/admin/pool')).json())) as { sequences: { id: number; session_id: string | null; status: string }[] };
    const seqB = poolBefore.sequences.find((s) => s.session_id === b.id)!;
    expect(seqB.status).toBe('leased');
    expect((await study.tracesOf(b.id)).length).toBeGreaterThan(0);
    await page.goto(`${server.url}/dashboard#/session/${b.id}`);
    await page.getByTestId('withdraw').click();
    await expect.poll(() => page.getByTestId('withdraw-confirm').textContent()).toContain(`sessions/${b.id}.ndjson`);
    await shot('4-withdraw-confirm');
    await page.getByTestId('withdraw-yes').click();
    // The page says what was deleted (issue 32), then leads back to the live list.
    await expect.poll(() => page.getByTestId('withdrawal-report').textContent()).toMatch(new RegExp(`^Session ${b.id} withdrawn\\. Deleted for good: its event log \\(\\d+ records\\)`));
    await shot('4b-withdrawn');
    await page.getByText('Back to live sessions').click();
    await page.getByTestId('sessions-table').waitFor();
    await expect.poll(() => row(b).count()).toBe(0);
    expect(await study.tracesOf(b.id)).toEqual([]);
    const poolAfter = (await page.evaluate(async () => (await fetch('/api/admin/pool')).json())) as { sequences: { id: number; session_id: string | null; status: string }[] };
    expect(poolAfter.sequences.find((s) => s.id === seqB.id)).toMatchObject({ status: 'free', session_id: null });
    expect(poolAfter.sequences.some((s) => s.session_id === b.id)).toBe(false);
    expect(await row(a).count()).toBe(1);
    // Its page, opened again (or any unknown id), says what happened instead of "Loading session…" for good (issue 32).
    for (const id of [b.id, 'never-was']) {
      await page.goto(`${server.url}/dashboard#/session/${id}`);
      await expect.poll(() => page.getByTestId('session-unknown').textContent()).toContain(`There is no session ${id} on this server`);
    }
    await page.goto(`${server.url}/dashboard#/`);
    await page.getByTestId('sessions-table').waitFor();

    // The pool and the study overview.
    await page.getByTestId('nav-pool').click();
    await expect.poll(() => page.getByTestId('pool-leased').textContent()).toContain('1');
    await shot('5-pool');
    await page.getByTestId('nav-overview').click();
    await expect.poll(() => page.getByTestId('config-hash').textContent()).toMatch(/^[0-9a-f]{16}$/);
    expect(await page.locator('[data-testid^="puzzle-card-"]').count()).toBe(config.puzzles.length + config.practice_puzzles.length);
    await shot('6-overview');
    await page.getByTestId('nav-exports').click();
    await page.getByTestId('export-events').waitFor();
    await shot('7-exports');
    const href = await page.getByTestId('export-events').getAttribute('href');
    const csv = await page.evaluate(async (h) => (await fetch(h!)).text(), href);
    expect(csv).toContain(a.id);
    expect(csv).not.toContain(b.id);

    // Marking A as a pilot keeps it, but takes it out of the balance.
    const attemptsBefore = Number(await page.evaluate(async (p) => ((await (await fetch('/api/admin/pool')).json()) as { balance: { per_puzzle: Record<string, number> } }).balance.per_puzzle[p], a.sequence[0]));
    await page.goto(`${server.url}/dashboard#/session/${a.id}`);
    await page.getByTestId('flag-select').selectOption('pilot');
    await expect.poll(() => page.getByTestId('action-message').textContent()).toContain('done');
    await page.getByTestId('nav-pool').click();
    await expect.poll(() => page.getByTestId('pool-flagged').textContent()).toContain('1');
    expect(await page.getByTestId(`attempts-${a.sequence[0]}`).textContent()).toBe(String(attemptsBefore - 1));

    // Logging out closes the door again.
    await page.getByTestId('logout').click();
    await page.getByTestId('login-password').waitFor();
    expect(await page.evaluate(async () => (await fetch('/api/admin/sessions')).status)).toBe(401);
  });
});
