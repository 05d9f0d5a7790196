// End to end: a participant walks the whole default study in real Chromium against the real server; the log (NDJSON
// files, or PostgreSQL's rows: the suite runs on both stores) then holds every action in order with its stamps, and no
// solution ever reached the browser.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { Driver, answerSurvey, doTutorial, solveBoard, waitForStep, type Played } from '../support/participant.ts';

const tweak = (c: StudyFixture['config']) => {
  for (const phase of c.phases) {
    if (phase.kind === 'warmup') phase.cap_seconds = 3;
    if (phase.kind === 'puzzles') phase.skip_min_seconds = 0;
  }
};


/** Record every API response body so the test can prove no solution left the study.server. */
function recordResponses(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', async (res) => {
    if (!res.url().includes('/api/')) return;
    try {
      bodies.push(await res.text());
    } catch {
      /* redirected or aborted */
    }
  });
  return bodies;
}


async function playSession(study: StudyFixture, page: Page, skipPosition: number | null): Promise<{ sessionId: string; played: Played; sequence: string[] }> {
  const played: Played = { moves: [] };
  await page.goto(study.server.url);
  await page.getByTestId('consent-agree').click();

  await waitForStep(page, 'tutorial');
  await doTutorial(new Driver(page, 'mouse'), study.solutionOf('tutorial'), played);

  await waitForStep(page, 'warmup');
  await expect.poll(() => page.getByTestId('countdown').isVisible()).toBe(true);
  await page.getByTestId('cell-0-0').click({ button: 'right' });
  played.moves.push('cross');
  await waitForStep(page, 'survey'); // the 3-second cap moves on by itself

  await answerSurvey(page, {
    nonogram_skill: '6',
    puzzle_skill: '8',
    nonogram_frequency: 'Sometimes',
    logic_frequency: 'Often',
    nonogram_sizes: ['10x10', '15x15'],
    logic_types: ['Sudoku'],
    academic_program: 'Computer Science',
  });

  const sessionId = await page.evaluate(async () => (await (await fetch('/api/session')).json()).session_id as string);
  const sequence = await page.evaluate(async () => (await (await fetch('/api/session')).json()).sequence as string[]);
  for (let position = 1; position <= 3; position++) {
    await waitForStep(page, 'puzzle');
    const id = sequence[position - 1];
    if (position === skipPosition) {
      await page.getByTestId('cell-0-0').click();
      played.moves.push('fill');
      await page.getByTestId('skip').click();
      await page.getByTestId('confirm-yes').click();
      played.moves.push('skip');
      await waitForStep(page, 'rating');
      await answerSurvey(page, { difficulty: 'N/A', guessing: 'Sometimes' });
      continue;
    }
    // A wrong cell, undone; a reset, undone: then solve and submit.
    const solution = study.solutionOf(id);
    const wrongCol = solution[0].indexOf('.');
    await page.getByTestId(`cell-0-${wrongCol}`).click();
    played.moves.push('fill');
    await page.getByTestId('submit').click();
    played.moves.push('submit');
    await expect.poll(() => page.getByTestId('feedback').textContent()).toContain('Not solved yet');
    await page.getByTestId('undo').click();
    played.moves.push('undo');
    await solveBoard(page, solution, played);
    await page.getByTestId('reset').click();
    await page.getByTestId('confirm-yes').click();
    played.moves.push('reset');
    await expect.poll(() => page.locator('[data-state="filled"]').count()).toBe(0);
    await page.getByTestId('undo').click();
    played.moves.push('undo');
    await page.getByTestId('submit').click();
    played.moves.push('submit');
    await waitForStep(page, 'rating');
    await answerSurvey(page, { difficulty: String(position + 1), guessing: 'Rarely' });
  }

  await waitForStep(page, 'post_survey');
  await page.getByTestId('revise-1').selectOption('5');
  const why: Record<string, string> = {};
  for (const id of sequence) why[`why_${id}`] = `Puzzle ${id} had long runs <b>bold</b>`;
  await answerSurvey(page, { ...why, strategies: 'Footholds first, then overlaps', guessing_overall: 'Rarely' });
  await waitForStep(page, 'complete');
  await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 20_000 }).toBe(study.config.completion.code);
  return { sessionId, played, sequence };
}

function checkLog(log: Record<string, any>[], played: Played, sessionId: string) {
  const client = log.filter((e) => e.origin === 'client');
  // Every client event present exactly once, in order, 1..N with no gap.
  expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
  for (const e of log) {
    expect(e.session_id).toBe(sessionId);
    expect(typeof e.t_server).toBe('number');
    expect(e.config_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(e.app_version).toBeTruthy();
  }
  for (const e of client) {
    expect(e.t_wall).toBeGreaterThan(1.7e12);
    expect(e.t_mono).toBeGreaterThanOrEqual(0);
    expect(typeof e.phase).toBe('string');
  }
  const monos = client.map((e) => e.t_mono);
  expect(monos).toEqual([...monos].sort((a, b) => a - b));
  // Every move the participant made, in the order made.
  expect(client.filter((e) => e.type === 'move').map((e) => e.payload.move.type)).toEqual(played.moves);
  // Moves on study puzzles carry their puzzle id and position.
  for (const e of client.filter((x) => x.type === 'move' && x.phase === 'puzzles')) {
    expect(e.puzzle_id).toMatch(/^n10x10-/);
    expect([1, 2, 3]).toContain(e.position);
  }
  expect(log[0].type).toBe('session_start');
  expect(log.at(-1)!.type).toBe('session_complete');
}

describe.each(STORES)('a whole participant session on %s', (store) => {
  const study = studyFixture(tweak, { store });

  it('solves all three puzzles and logs every action', async () => {
    const page = await study.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const bodies = recordResponses(page);
    const { sessionId, played } = await playSession(study, page, null);
    const log = await study.readLog(sessionId);
    checkLog(log, played, sessionId);
    const checks = log.filter((e) => e.type === 'check' && e.payload.position !== null);
    expect(checks.filter((e) => e.payload.solved)).toHaveLength(3);
    expect(checks.filter((e) => !e.payload.solved)).toHaveLength(3);
    const ratings = log.filter((e) => e.type === 'rating').map((e) => e.payload.difficulty);
    expect(ratings).toEqual([2, 3, 4]);
    expect(log.some((e) => e.type === 'rating_revise' && e.payload.to === 5 && e.payload.from === 2)).toBe(true);
    const post = log.find((e) => e.type === 'survey_submit' && e.payload.survey_id === 'post_survey')!;
    expect(post.payload.answers.strategies).toBe('Footholds first, then overlaps');
    const warmupEnd = log.find((e) => e.type === 'step_end' && e.phase === 'warmup')!;
    expect(warmupEnd.payload.reason).toBe('timeout');

    // Nothing of any solution reached the browser: not in API responses, not in the page.
    const html = await page.content();
    for (const p of [...study.config.puzzles, ...study.config.practice_puzzles]) {
      const secret = p.solution!.join('');
      for (const text of [...bodies, html]) {
        expect(text.includes('"solution"')).toBe(false);
        expect(text.includes(JSON.stringify(p.solution))).toBe(false);
        expect(text.includes(secret)).toBe(false);
      }
    }
    await page.close();
  });

  it('skips a puzzle, rates it N/A, and still completes', async () => {
    const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { sessionId, played, sequence } = await playSession(study, page, 2);
    const log = await study.readLog(sessionId);
    checkLog(log, played, sessionId);
    const ends = log.filter((e) => e.type === 'step_end' && e.payload.kind === 'puzzle');
    expect(ends.map((e) => e.payload.reason)).toEqual(['solved', 'skipped', 'solved']);
    expect(ends[1].puzzle_id).toBe(sequence[1]);
    const ratings = log.filter((e) => e.type === 'rating').map((e) => e.payload.difficulty);
    expect(ratings).toEqual([2, null, 4]);
    expect(await study.sessionIds()).toHaveLength(2);
    await context.close();
  });
});
