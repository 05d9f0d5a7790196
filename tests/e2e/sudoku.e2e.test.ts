// A whole Sudoku session in Chromium (issue 35): consent, the Sudoku tutorial's checklist, the warmup, the survey,
// three 9x9 puzzles solved and rated, the post-survey, the completion code, by mouse on a desktop, by touch on a
// phone and by keyboard alone; the log holds exactly the moves made, each with its input source.
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { studyFixture } from '../support/study.ts';
import { Driver, answerSurvey, tabTo, waitForStep, type InputMode } from '../support/participant.ts';

const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'sudoku-study.json'), 'utf8'));
const study = studyFixture((config) => Object.assign(config, fixture));
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const shots = join(import.meta.dirname, '..', '..', 'results', 'screenshots', 'sudoku');

/** Plays a Sudoku board with one kind of input, the way a participant with that device would. */
class SudokuDriver {
  readonly moves: string[] = [];
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
    this.moves.push('set_digit');
  }

  async note(r: number, c: number, d: number): Promise<void> {
    await this.select(r, c);
    if (this.mode === 'keyboard') await this.page.keyboard.press('n');
    else await this.buttons.press('mode-notes');
    await this.digitKey(d);
    if (this.mode === 'keyboard') await this.page.keyboard.press('n');
    else await this.buttons.press('mode-digits');
    this.moves.push('pencil');
  }

  async erase(r: number, c: number): Promise<void> {
    await this.select(r, c);
    if (this.mode === 'keyboard') await this.page.keyboard.press('Backspace');
    else await this.buttons.press('erase');
    this.moves.push('clear');
  }

  async undo(): Promise<void> {
    if (this.mode === 'keyboard') {
      await this.select(0, 0);
      await this.page.keyboard.press('z');
    } else await this.buttons.press('undo');
    this.moves.push('undo');
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

async function playWhole(page: Page, mode: InputMode, tag: string): Promise<{ sessionId: string; moves: string[] }> {
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
  const givens = fixture.practice_puzzles[0].givens as string[];
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
  s.moves.push('reset');
  await buttons.press('hint');
  await page.getByTestId('hint-panel').waitFor();
  s.moves.push('hint', 'reveal_digit');
  await s.write(b[0], b[1], Number(tutorial[b[0]][b[1]]));
  await buttons.press('submit');
  s.moves.push('submit');
  await page.getByTestId('feedback').waitFor();
  await page.waitForFunction(() => !(document.querySelector('[data-testid="continue"]') as HTMLButtonElement | null)?.disabled);
  await buttons.press('continue');

  // The warmup, solved.
  await waitForStep(page, 'warmup');
  await s.solve(study.solutionOf('warmup'));
  await buttons.press('submit');
  s.moves.push('submit');

  await waitForStep(page, 'survey');
  await answerSurvey(page, { nonogram_skill: '6', puzzle_skill: '8', nonogram_frequency: 'Sometimes', logic_frequency: 'Often', academic_program: 'Biology' }, mode);
  const { session_id: sessionId, sequence } = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; sequence: string[] });
  for (let position = 1; position <= 3; position++) {
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
    await s.solve(study.solutionOf(sequence[position - 1]));
    await buttons.press('submit');
    s.moves.push('submit');
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
  return { sessionId, moves: s.moves };
}

async function checkLog(sessionId: string, moves: string[], mode: InputMode): Promise<void> {
  const log = await study.readLog(sessionId);
  const client = log.filter((e) => e.origin === 'client');
  expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
  const logged = client.filter((e) => e.type === 'move');
  expect(logged.map((e) => e.payload.move.type)).toEqual(moves);
  for (const e of logged) expect(e.source).toBe(e.payload.move.type === 'reveal_digit' ? 'system' : mode);
  expect(log.filter((e) => e.type === 'check' && e.payload.solved).length).toBe(4); // the warmup and three puzzles (the tutorial is left unsolved)
  expect(log.some((e) => e.type === 'session_complete')).toBe(true);
}

describe('a whole Sudoku session', () => {
  it('by mouse on a desktop (1280x800)', async () => {
    const context = await study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const { sessionId, moves } = await playWhole(page, 'mouse', 'desktop-mouse');
    await checkLog(sessionId, moves, 'mouse');
    await context.close();
  });

  it('by touch on a phone (390x844)', async () => {
    const context = await study.browser.newContext(PHONE);
    const page = await context.newPage();
    const { sessionId, moves } = await playWhole(page, 'touch', 'phone-touch');
    await checkLog(sessionId, moves, 'touch');
    await context.close();
  });

  it('by keyboard alone (1280x800)', async () => {
    const context = await study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const { sessionId, moves } = await playWhole(page, 'keyboard', 'desktop-keyboard');
    await checkLog(sessionId, moves, 'keyboard');
    await context.close();
  });
});
