// A whole Sudoku session in Chromium (issue 35): consent, the Sudoku tutorial's checklist, the warmup, the survey,
// three 9x9 puzzles solved and rated (the first with pencil marks, a pause and a wrong digit on the way), the
// post-survey, the completion code, by mouse on a desktop, by touch on a phone and by keyboard alone; the log holds
// exactly the moves made (each once, in order, with its cell, digit and input source). The desktop session is then
// replayed in the experimenter dashboard: the replay shows the board the participant had mid-way (marks, the wrong
// digit flagged, the pause) and ends on the board they left.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { repoRoot } from '../support/server.ts';
import { loadStudyConfig } from '../../node/studyConfig.ts';
import { Driver, answerSurvey, tabTo, waitForStep, type InputMode } from '../support/participant.ts';

const PASSWORD = 'lab-password-for-tests';
const FIXTURE_STUDY = join(import.meta.dirname, '..', 'fixtures', 'sudoku-study.json');
const READY_STUDY = join(repoRoot, 'study-config', 'sudoku.json');

/** A Sudoku study served for the tests of a describe block: the config file as is (nothing of study.json left in it). */
interface SudokuStudy {
  study: StudyFixture;
  /** The config file's content. */
  fixture: { puzzles: { id: string; givens: string[] }[]; practice_puzzles: { id: string; givens: string[] }[] };
}

function sudokuStudy(path: string): SudokuStudy {
  const fixture = JSON.parse(readFileSync(path, 'utf8'));
  const study = studyFixture(
    (config) => {
      for (const key of Object.keys(config)) delete (config as Record<string, unknown>)[key];
      Object.assign(config, fixture);
    },
    { env: { NONOLAB_ADMIN_PASSWORD: PASSWORD } },
  );
  return { study, fixture };
}
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const shots = join(import.meta.dirname, '..', '..', 'results', 'screenshots', 'sudoku');

/** A move as the log must hold it (a hint's reveal: its cell and digit are the server's, filled in from its record). */
type ExpectedMove = { type: string; row?: number; col?: number; digit?: number };

/** A board as a page shows it: each cell's digit and the pencil marks drawn in it, by `r-c`. */
type ShownBoard = Record<string, { digit: string; marks: string }>;

/** The board drawn by the cells whose test ids start with `prefix` (`sudoku-cell-` on the participant's page). */
function shownBoard(page: Page, prefix: string): Promise<ShownBoard> {
  return page.evaluate((prefix) => {
    const out: Record<string, { digit: string; marks: string }> = {};
    for (const el of document.querySelectorAll<HTMLElement>(`[data-testid^="${prefix}"]`)) out[el.dataset.testid!.slice(prefix.length)] = { digit: el.dataset.digit ?? '', marks: el.dataset.marks ?? '' };
    return out;
  }, prefix);
}

/** Plays a Sudoku board with one kind of input, the way a participant with that device would. */
class SudokuDriver {
  readonly moves: ExpectedMove[] = [];
  constructor(
    readonly page: Page,
    readonly mode: InputMode,
    readonly buttons: Driver,
  ) {}

  async select(r: number, c: number): Promise<void> {
    const cell = this.page.getByTestId(`sudoku-cell-${r}-${c}`);
    if (this.mode === 'mouse') return cell.click();
    if (this.mode === 'touch') return cell.tap();
    const grid = this.page.getByTestId('sudoku-board');
    if (!(await grid.evaluate((el) => el === document.activeElement))) await tabTo(this.page, '[data-testid="sudoku-board"]');
    const [r0, c0] = ((await grid.getAttribute('data-sel')) || '0-0').split('-').map(Number);
    for (let i = r0; i < r; i++) await this.page.keyboard.press('ArrowDown');
    for (let i = r0; i > r; i--) await this.page.keyboard.press('ArrowUp');
    for (let i = c0; i < c; i++) await this.page.keyboard.press('ArrowRight');
    for (let i = c0; i > c; i--) await this.page.keyboard.press('ArrowLeft');
  }

  private async digitKey(d: number): Promise<void> {
    if (this.mode === 'keyboard') await this.page.keyboard.press(String(d));
    else await this.buttons.press(`pad-${d}`);
  }

  async write(r: number, c: number, d: number): Promise<void> {
    await this.select(r, c);
    await this.digitKey(d);
    this.moves.push({ type: 'set_digit', row: r, col: c, digit: d });
  }

  async note(r: number, c: number, d: number): Promise<void> {
    await this.select(r, c);
    if (this.mode === 'keyboard') await this.page.keyboard.press('n');
    else await this.buttons.press('mode-notes');
    await this.digitKey(d);
    if (this.mode === 'keyboard') await this.page.keyboard.press('n');
    else await this.buttons.press('mode-digits');
    this.moves.push({ type: 'pencil', row: r, col: c, digit: d });
  }

  async erase(r: number, c: number): Promise<void> {
    await this.select(r, c);
    if (this.mode === 'keyboard') await this.page.keyboard.press('Backspace');
    else await this.buttons.press('erase');
    this.moves.push({ type: 'clear', row: r, col: c });
  }

  async undo(): Promise<void> {
    if (this.mode === 'keyboard') {
      await this.select(0, 0);
      await this.page.keyboard.press('z');
    } else await this.buttons.press('undo');
    this.moves.push({ type: 'undo' });
  }

  /** Write every digit the board still lacks (or has wrong), row by row. */
  async solve(solution: string[]): Promise<void> {
    const cells = await this.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('[data-testid^="sudoku-cell-"]')].map((el) => ({ id: el.dataset.testid!, digit: el.dataset.digit ?? '' })),
    );
    for (const { id, digit } of cells) {
      const [r, c] = id.split('-').slice(2).map(Number);
      if (digit !== solution[r][c]) await this.write(r, c, Number(solution[r][c]));
    }
  }
}

/** What the participant saw of their first study puzzle: mid-way (after the marks and the wrong digit) and at the end. */
interface FirstPuzzle {
  puzzleId: string;
  /** Moves made on it before the mid-way board (the replay's frame of that board). */
  movesToMid: number;
  /** The move after the pause: the wrong digit, 1-based among the puzzle's moves. */
  wrongMove: number;
  wrongCell: [number, number];
  mid: ShownBoard;
  final: ShownBoard;
  /** Moves made on it in all (submit included). */
  moves: number;
}

async function playWhole({ study, fixture }: SudokuStudy, page: Page, mode: InputMode, tag: string): Promise<{ sessionId: string; moves: ExpectedMove[]; first: FirstPuzzle }> {
  const buttons = new Driver(page, mode);
  const s = new SudokuDriver(page, mode, buttons);
  await page.goto(study.server.url);
  await page.getByTestId('consent-agree').waitFor();
  await buttons.press('consent-agree');

  // The tutorial: each control once, then Continue.
  await waitForStep(page, 'tutorial');
  await page.getByTestId('sudoku-board').waitFor();
  expect(await page.getByTestId('checklist').textContent()).toMatch(/digit/i);
  const tutorial = study.solutionOf('tutorial');
  const givens = fixture.practice_puzzles[0].givens;
  const empties: [number, number][] = [];
  givens.forEach((row: string, r: number) => [...row].forEach((ch, c) => ch === '.' && empties.push([r, c])));
  const [a, b] = empties;
  await s.note(a[0], a[1], 1);
  expect(await page.getByTestId(`sudoku-cell-${a[0]}-${a[1]}`).getAttribute('data-marks')).toBe('1');
  await s.write(a[0], a[1], Number(tutorial[a[0]][a[1]]));
  await s.erase(a[0], a[1]);
  await s.undo();
  await buttons.press('reset');
  await buttons.press('confirm-yes');
  s.moves.push({ type: 'reset' });
  await buttons.press('hint');
  await page.getByTestId('hint-panel').waitFor();
  s.moves.push({ type: 'hint' }, { type: 'reveal_digit' });
  await s.write(b[0], b[1], Number(tutorial[b[0]][b[1]]));
  await buttons.press('submit');
  s.moves.push({ type: 'submit' });
  await page.getByTestId('feedback').waitFor();
  await page.waitForFunction(() => !(document.querySelector('[data-testid="continue"]') as HTMLButtonElement | null)?.disabled);
  await buttons.press('continue');

  // The warmup, solved.
  await waitForStep(page, 'warmup');
  await s.solve(study.solutionOf('warmup'));
  await buttons.press('submit');
  s.moves.push({ type: 'submit' });

  await waitForStep(page, 'survey');
  await answerSurvey(page, { nonogram_skill: '6', puzzle_skill: '8', nonogram_frequency: 'Sometimes', logic_frequency: 'Often', academic_program: 'Biology' }, mode);
  const { session_id: sessionId, sequence } = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; sequence: string[] });
  let first: FirstPuzzle | undefined;
  for (let position = 1; position <= 3; position++) {
    const movesBefore = s.moves.length;
    await waitForStep(page, 'puzzle');
    await page.getByTestId('sudoku-board').waitFor();
    if (position === 1) {
      // The board fits: cells of at least 36 px at 390 px wide, the pad's keys at least 44 px, nothing sideways.
      const vp = page.viewportSize()!;
      const cell = (await page.getByTestId('sudoku-cell-0-0').boundingBox())!;
      const board = (await page.getByTestId('sudoku-board').boundingBox())!;
      const key = (await page.getByTestId('pad-1').boundingBox())!;
      expect(cell.width).toBeGreaterThanOrEqual(36);
      expect(key.height).toBeGreaterThanOrEqual(44);
      expect(key.width).toBeGreaterThanOrEqual(36);
      expect(board.x + board.width).toBeLessThanOrEqual(vp.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(vp.width);
      // Givens look different and do not change.
      const given = page.locator('[data-given="true"]').first();
      const before = await given.getAttribute('data-digit');
      const [gr, gc] = (await given.getAttribute('data-testid'))!.split('-').slice(2).map(Number);
      await s.select(gr, gc);
      if (mode === 'keyboard') await page.keyboard.press(before === '1' ? '2' : '1');
      else await buttons.press(before === '1' ? 'pad-2' : 'pad-1');
      expect(await given.getAttribute('data-digit')).toBe(before);
      expect(await given.evaluate((el) => getComputedStyle(el).fontWeight)).toBe('700');
      mkdirSync(shots, { recursive: true });
      await page.screenshot({ path: join(shots, `sudoku-${tag}.png`) });
    }
    const solution = study.solutionOf(sequence[position - 1]);
    let mid: { board: ShownBoard; moves: number; wrongMove: number; wrongCell: [number, number] } | undefined;
    if (position === 1) {
      // Pencil marks in two cells, a pause of a few seconds, then a digit the solution does not have there.
      const open = Object.entries(await shownBoard(page, 'sudoku-cell-')).flatMap(([at, cell]) => (cell.digit ? [] : [at.split('-').map(Number) as [number, number]]));
      const [x, y, z] = open;
      const other = (d: string) => (Number(d) % 9) + 1;
      await s.note(x[0], x[1], Number(solution[x[0]][x[1]]));
      await s.note(x[0], x[1], other(solution[x[0]][x[1]]));
      await s.note(y[0], y[1], other(solution[y[0]][y[1]]));
      await page.waitForTimeout(3_000);
      await s.write(z[0], z[1], other(solution[z[0]][z[1]]));
      mid = { board: await shownBoard(page, 'sudoku-cell-'), moves: s.moves.length - movesBefore, wrongMove: s.moves.length - movesBefore, wrongCell: z };
      expect(mid.board[`${x[0]}-${x[1]}`].marks).toBe([Number(solution[x[0]][x[1]]), other(solution[x[0]][x[1]])].sort().join(''));
      expect(mid.board[`${z[0]}-${z[1]}`].digit).toBe(String(other(solution[z[0]][z[1]])));
    }
    await s.solve(solution);
    const final = await shownBoard(page, 'sudoku-cell-');
    await buttons.press('submit');
    s.moves.push({ type: 'submit' });
    if (mid) first = { puzzleId: sequence[0], movesToMid: mid.moves, wrongMove: mid.wrongMove, wrongCell: mid.wrongCell, mid: mid.board, final, moves: s.moves.length - movesBefore };
    await waitForStep(page, 'rating');
    await answerSurvey(page, { difficulty: String(position + 1), guessing: 'Rarely' }, mode);
  }
  await waitForStep(page, 'post_survey');
  // Each puzzle's picture as the participant left it (loaded with the post-survey, not the first load): solved boards.
  for (const position of [1, 2, 3]) {
    const picture = page.getByTestId(`post-sudoku-${position}`);
    await picture.waitFor();
    expect(await picture.getAttribute('aria-label')).toBe(`Puzzle ${position} as you left it`);
  }
  const why: Record<string, string> = {};
  for (const id of sequence) why[`why_${id}`] = `Puzzle ${id}: singles first`;
  await answerSurvey(page, { ...why, strategies: 'Singles', guessing_overall: 'Rarely' }, mode);
  await waitForStep(page, 'complete');
  await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 20_000 }).toBe(study.config.completion.code);
  return { sessionId, moves: s.moves, first: first! };
}

/**
 * The server's log holds exactly the moves made: each once, in order, with its cell and digit (the hint's reveal with
 * the cell the server's hint record names and the tutorial's digit there), each with the input source that made it.
 */
async function checkLog({ study }: SudokuStudy, sessionId: string, moves: ExpectedMove[], mode: InputMode): Promise<void> {
  const log = await study.readLog(sessionId);
  const client = log.filter((e) => e.origin === 'client');
  expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
  const logged = client.filter((e) => e.type === 'move');
  const hints = log.filter((e) => e.origin === 'server' && e.type === 'hint');
  expect(hints).toHaveLength(1);
  const { row, col } = hints[0].payload as { row: number; col: number };
  const tutorial = study.solutionOf('tutorial');
  const expected = moves.map((m) => (m.type === 'reveal_digit' ? { type: 'reveal_digit', row, col, digit: Number(tutorial[row][col]) } : m));
  expect(logged.map((e) => e.payload.move)).toEqual(expected);
  for (const e of logged) expect(e.source).toBe(e.payload.move.type === 'reveal_digit' ? 'system' : mode);
  expect(log.filter((e) => e.type === 'check' && e.payload.solved).length).toBe(4); // the warmup and three puzzles (the tutorial is left unsolved)
  expect(log.some((e) => e.type === 'session_complete')).toBe(true);
}

/**
 * The experimenter replays the session's first study puzzle in the dashboard (its own browser context, logged in):
 * step by step to the board the participant had mid-way (marks drawn, the wrong digit flagged, the pause before it
 * marked), played at speed to the end, which is the board the participant left; scrubbed back to the givens.
 */
async function checkReplay({ study, fixture }: SudokuStudy, sessionId: string, first: FirstPuzzle, tag: string): Promise<void> {
  const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${study.server.url}/dashboard`);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('sessions-table').waitFor();
  // The study page pictures every Sudoku of the study: its solution, the givens bold.
  await page.getByTestId('nav-overview').click();
  await expect.poll(() => page.locator('[data-testid^="puzzle-picture-"][role="img"]').count()).toBe(fixture.puzzles.length + fixture.practice_puzzles.length);
  const pictured = await shownBoard(page, `puzzle-picture-${first.puzzleId}-cell-`);
  const solution = study.solutionOf(first.puzzleId);
  expect(Object.keys(pictured)).toHaveLength(81);
  expect(Object.entries(pictured).every(([at, cell]) => cell.digit === solution[Number(at.split('-')[0])][Number(at.split('-')[1])])).toBe(true);
  const log = await study.readLog(sessionId);
  const step = log.find((e) => e.origin === 'client' && e.type === 'step_start' && e.position === 1)!.step as number;
  await page.goto(`${study.server.url}/dashboard#/session/${sessionId}`);
  await page.getByTestId(`replay-${step}`).click();
  await page.getByTestId('replay').waitFor();
  const board = () => shownBoard(page, 'replay-board-cell-');
  const position = () => page.getByTestId('replay-position').textContent();

  // Before the first move: the givens alone, every given in its place.
  await expect.poll(position).toContain(`0 / ${first.moves}`);
  const givens = fixture.puzzles.find((p) => p.id === first.puzzleId)!.givens;
  const start = await board();
  for (const [at, cell] of Object.entries(start)) {
    const [r, c] = at.split('-').map(Number);
    expect(cell).toEqual({ digit: givens[r][c] === '.' ? '' : givens[r][c], marks: '' });
  }
  expect(Object.keys(start)).toHaveLength(81);
  expect(await page.getByTestId('replay-summary').textContent()).toContain('1 errors');

  // Move by move to the mid-way board: the participant's digits and marks, the wrong digit flagged.
  for (let i = 0; i < first.movesToMid; i++) await page.getByTestId('next').click();
  await expect.poll(position).toContain(`${first.movesToMid} / ${first.moves}`);
  expect(await board()).toEqual(first.mid);
  const [zr, zc] = first.wrongCell;
  expect(await page.getByTestId(`replay-board-cell-${zr}-${zc}`).getAttribute('data-wrong')).toBe('true');
  expect(await page.locator('[data-wrong="true"]').count()).toBe(1);
  await page.getByTestId('prev').click();
  await expect.poll(position).toContain(`${first.movesToMid - 1} / ${first.moves}`);
  expect(await page.locator('[data-wrong="true"]').count()).toBe(0);

  // The timeline: the one wrong digit is the one error, the wait before it a pause, both named in the move list.
  expect(await page.locator('.tl-move.error').count()).toBe(1);
  expect(await page.locator('.tl-pause').count()).toBeGreaterThanOrEqual(1);
  const wrongItem = page.locator('[data-testid="move-list"] > li').nth(first.wrongMove - 1);
  expect(await wrongItem.textContent()).toContain(`at r${zr + 1} c${zc + 1}`);
  expect(await wrongItem.locator('.pause-tag').count()).toBe(1);
  expect(await wrongItem.locator('.error-tag').count()).toBe(1);
  expect(await page.locator('[data-testid="move-list"] .error-tag').count()).toBe(1);
  mkdirSync(shots, { recursive: true });
  await page.getByTestId('next').click();
  await page.screenshot({ path: join(shots, `replay-mid-${tag}.png`), fullPage: true });

  // Played at speed to the end: the board the participant left, nothing wrong on it.
  await page.getByTestId('speed').selectOption('32');
  await page.getByTestId('play').click();
  await expect.poll(position, { timeout: 30_000 }).toContain(`${first.moves} / ${first.moves}`);
  expect(await board()).toEqual(first.final);
  expect(await page.locator('[data-wrong="true"]').count()).toBe(0);
  await page.screenshot({ path: join(shots, `replay-end-${tag}.png`), fullPage: true });
  // Scrubbed back to the start, then to the end again.
  await page.getByTestId('scrub').fill('0');
  await expect.poll(position).toContain(`0 / ${first.moves}`);
  expect(await board()).toEqual(start);
  await page.getByTestId('to-end').click();
  expect(await board()).toEqual(first.final);
  await context.close();
}

describe('a whole Sudoku session (tests/fixtures/sudoku-study.json)', () => {
  const setup = sudokuStudy(FIXTURE_STUDY);

  it('by mouse on a desktop (1280x800), then replayed in the dashboard', async () => {
    const context = await setup.study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const { sessionId, moves, first } = await playWhole(setup, page, 'mouse', 'desktop-mouse');
    await checkLog(setup, sessionId, moves, 'mouse');
    await context.close();
    await checkReplay(setup, sessionId, first, 'desktop-mouse');
  });

  it('by touch on a phone (390x844)', async () => {
    const context = await setup.study.browser.newContext(PHONE);
    const page = await context.newPage();
    const { sessionId, moves } = await playWhole(setup, page, 'touch', 'phone-touch');
    await checkLog(setup, sessionId, moves, 'touch');
    await context.close();
  });

  it('by keyboard alone (1280x800)', async () => {
    const context = await setup.study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const { sessionId, moves } = await playWhole(setup, page, 'keyboard', 'desktop-keyboard');
    await checkLog(setup, sessionId, moves, 'keyboard');
    await context.close();
  });
});

describe('the ready study, study-config/sudoku.json (NONOLAB_CONFIG=study-config/sudoku.json npm start)', () => {
  const setup = sudokuStudy(READY_STUDY);

  it('serves that file as is, and a participant plays it on a phone by touch to its completion code, the log exact, then it replays', async () => {
    // The server runs on exactly the file's config: the hash `validate-config` prints for it.
    expect(setup.study.server.output()).toContain(`study 'sudoku-difficulty' (config ${loadStudyConfig(READY_STUDY).hash})`);
    const context = await setup.study.browser.newContext(PHONE);
    const page = await context.newPage();
    const { sessionId, moves, first } = await playWhole(setup, page, 'touch', 'ready-phone-touch');
    expect(await page.getByTestId('completion-code').textContent()).toBe('SUDO-2026-DONE');
    await checkLog(setup, sessionId, moves, 'touch');
    await context.close();
    await checkReplay(setup, sessionId, first, 'ready-phone-touch');
  });
});
