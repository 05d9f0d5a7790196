// End to end: the whole study in real Chromium three ways (desktop mouse, phone touch, keyboard alone); the log holds
// every move with its input source, the board fits each screen, and no solution reaches the page or its traffic. On
// both stores: each input's events (pointer strokes with their per-cell times, keyboard strokes without) come back from
// the store as the browser sent them.
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { Driver, answerSurvey, doTutorial, solveBoard, tabTo, waitForStep, type InputMode, type Played } from '../support/participant.ts';

const tweak = (c: StudyFixture['config']) => {
  for (const phase of c.phases) {
    if (phase.kind === 'warmup') phase.cap_seconds = 3;
    if (phase.kind === 'puzzles') phase.skip_min_seconds = 0;
  }
};

/** Every request body and API response body the page exchanges. */
function recordTraffic(page: Page): string[] {
  const texts: string[] = [];
  page.on('request', (req) => {
    const body = req.postData();
    if (body) texts.push(body);
  });
  page.on('response', async (res) => {
    try {
      texts.push(await res.text());
    } catch {
      /* aborted or redirected */
    }
  });
  return texts;
}

async function boardFits(page: Page): Promise<{ cell: number; right: number; bottom: number; scrollWidth: number }> {
  const box = (await page.getByTestId('grid').boundingBox())!;
  const cell = Number(await page.locator('.board').getAttribute('data-cell-size'));
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  return { cell, right: box.x + box.width, bottom: box.y + box.height, scrollWidth };
}

async function playWhole(study: StudyFixture, page: Page, mode: InputMode, pages: string[]): Promise<{ sessionId: string; played: Played }> {
  const driver = new Driver(page, mode);
  const played: Played = { moves: [] };
  const snapshot = async () => pages.push(await page.content());
  await page.goto(study.server.url);
  await page.getByTestId('consent-agree').waitFor();
  await driver.press('consent-agree');

  await waitForStep(page, 'tutorial');
  await snapshot();
  await doTutorial(driver, study.solutionOf('tutorial'), played, { longPress: mode === 'touch' });

  await waitForStep(page, 'warmup');
  await expect.poll(() => page.getByTestId('countdown').isVisible()).toBe(true);
  await driver.cross(1, 1);
  played.moves.push('cross');
  await waitForStep(page, 'survey'); // the 3-second cap moves on by itself

  await answerSurvey(page, { nonogram_skill: '6', puzzle_skill: '8', nonogram_frequency: 'Sometimes', logic_frequency: 'Often', nonogram_sizes: ['10x10'], academic_program: 'Biology' }, mode);

  const { session_id: sessionId, sequence } = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; sequence: string[] });
  for (let position = 1; position <= 3; position++) {
    await waitForStep(page, 'puzzle');
    await snapshot();
    if (position === 1) {
      const fit = await boardFits(page);
      const vp = page.viewportSize()!;
      expect(fit.right).toBeLessThanOrEqual(vp.width);
      expect(fit.bottom).toBeLessThanOrEqual(vp.height);
      expect(fit.scrollWidth).toBeLessThanOrEqual(vp.width);
      if (vp.width >= 1000) expect(fit.cell).toBeGreaterThanOrEqual(28);
      // A hint: its explanation shows and its line is highlighted; the revealed cell is a logged, undoable move.
      await driver.press('hint');
      await page.getByTestId('hint-panel').waitFor();
      expect(await page.locator('.row-clue.hint-line, .col-clue.hint-line').count()).toBe(1);
      played.moves.push('hint', 'reveal');
      await driver.undo();
      played.moves.push('undo');
      // Back in the middle of a puzzle asks first (issue 32): staying keeps the board; the work is said to be kept.
      await page.evaluate(() => history.back());
      await page.getByTestId('confirm-no').waitFor();
      expect(await page.locator('#confirm-message').textContent()).toMatch(/Leave the study\? Your work so far is saved/);
      await page.getByTestId('confirm-no').click();
      await expect.poll(() => page.getByTestId('confirm-no').count()).toBe(0);
      await waitForStep(page, 'puzzle');
      // The hint belonged to the board it was given for: the next move takes its panel and highlight away (issue 32).
      await expect.poll(() => page.getByTestId('hint-panel').count()).toBe(0);
      expect(await page.locator('.row-clue.hint-line, .col-clue.hint-line').count()).toBe(0);
    }
    await solveBoard(page, study.solutionOf(sequence[position - 1]), played, driver);
    await expect.poll(() => page.locator('.row-clue.done').count()).toBe(10);
    await driver.press('submit');
    played.moves.push('submit');
    await waitForStep(page, 'rating');
    await answerSurvey(page, { difficulty: String(position + 1), guessing: 'Rarely' }, mode);
  }

  await waitForStep(page, 'post_survey');
  await snapshot();
  expect(await page.locator('.mini-board').count()).toBe(3);
  if (mode === 'keyboard') {
    await tabTo(page, '[data-testid="revise-1"]');
    await page.keyboard.type('5');
  } else await page.getByTestId('revise-1').selectOption('5');
  const why: Record<string, string> = {};
  for (const id of sequence) why[`why_${id}`] = `Puzzle ${id}: long runs first`;
  await answerSurvey(page, { ...why, strategies: 'Overlaps', guessing_overall: 'Rarely' }, mode);
  await waitForStep(page, 'complete');
  await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 20_000 }).toBe(study.config.completion.code);
  // The code has a copy button (issue 32); the status line says what the copy did.
  await page.getByTestId('copy-code').click();
  await expect.poll(() => page.getByTestId('copy-status').textContent()).toMatch(/clipboard|Could not copy/);
  await snapshot();
  return { sessionId, played };
}

function checkLog(log: Record<string, any>[], played: Played, mode: InputMode): void {
  const client = log.filter((e) => e.origin === 'client');
  expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
  const moves = client.filter((e) => e.type === 'move');
  expect(moves.map((e) => e.payload.move.type)).toEqual(played.moves);
  for (const e of moves) expect(e.source).toBe(e.payload.move.type === 'reveal' ? 'system' : mode);
  // A pointer drag logs when it reached each cell (offsets from the event's stamp, never after it, never decreasing);
  // a keyboard stroke paints its cells at once and has none.
  const strokes = moves.filter((e) => e.payload.move.type === 'stroke').map((e) => e.payload.move);
  expect(strokes.length).toBeGreaterThan(0);
  for (const m of strokes) {
    if (mode === 'keyboard') expect(m.cell_ms).toBeUndefined();
    else {
      expect(m.cell_ms).toHaveLength(m.cells.length);
      m.cell_ms.forEach((ms: number, i: number) => expect(ms <= 0 && (i === 0 || ms >= m.cell_ms[i - 1])).toBe(true));
      expect(m.cell_ms[0]).toBeLessThan(m.cell_ms.at(-1));
    }
  }
  expect(client.filter((e) => e.type === 'hint_shown')).toHaveLength(2);
  expect(log.filter((e) => e.type === 'rating').map((e) => e.payload.difficulty)).toEqual([2, 3, 4]);
  expect(log.some((e) => e.type === 'rating_revise' && e.payload.from === 2 && e.payload.to === 5)).toBe(true);
  expect(log.find((e) => e.type === 'step_end' && e.phase === 'warmup')?.payload.reason).toBe('timeout');
  expect(log.at(-1)!.type).toBe('session_complete');
}

function expectNoSolution(study: StudyFixture, texts: string[]): void {
  for (const p of [...study.config.puzzles, ...study.config.practice_puzzles]) {
    const rows = p.solution!;
    for (const text of texts) {
      expect(text.includes('"solution"')).toBe(false);
      expect(text.includes(JSON.stringify(rows))).toBe(false);
      expect(text.includes(rows.join(''))).toBe(false);
    }
  }
}

describe.each(STORES)('the whole study in the browser (%s)', (store) => {
  const study = studyFixture(tweak, { store });
  const runs: [InputMode, () => Promise<BrowserContext>][] = [
    ['mouse', () => study.browser.newContext({ viewport: { width: 1280, height: 900 } })],
    ['touch', () => study.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 })],
    ['keyboard', () => study.browser.newContext({ viewport: { width: 1280, height: 800 } })],
  ];
  // Touch, the slowest (25 s), runs once: its events are pointer events like the mouse's, which run on both stores.
  for (const [mode, makeContext] of runs.filter(([m]) => store === 'sqlite' || m !== 'touch'))
    it(`completes by ${mode === 'touch' ? 'touch on a phone' : mode === 'mouse' ? 'mouse on a desktop' : 'keyboard alone'}`, async () => {
      const context = await makeContext();
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const traffic = recordTraffic(page);
      const pages: string[] = [];
      const { sessionId, played } = await playWhole(study, page, mode, pages);
      checkLog(await study.readLog(sessionId), played, mode);
      expectNoSolution(study, [...traffic, ...pages]);
      expect(errors).toEqual([]);
      await context.close();
    });
});
