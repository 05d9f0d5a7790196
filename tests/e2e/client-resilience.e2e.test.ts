// End to end: a reload resumes the same step with the same board, undo history and clock; cutting the network
// mid-puzzle loses nothing and duplicates nothing; completion waits until the server holds every event. On both stores
// (SQLite + NDJSON, PostgreSQL): what the server holds is what these tests check.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { studyFixture, type StudyFixture } from '../support/study.ts';
import { STORES } from '../support/postgres.ts';
import { Driver, answerSurvey, waitForStep, type Played } from '../support/participant.ts';

const tweak = (c: StudyFixture['config']) => {
  // A short study: warmup, two puzzles with their ratings, completion.
  c.phases = c.phases.filter((p) => ['warmup', 'puzzles', 'complete'].includes(p.kind));
  for (const phase of c.phases) {
    if (phase.kind === 'warmup') phase.cap_seconds = 120;
    if (phase.kind === 'puzzles') {
      phase.count = 2;
      phase.skip_min_seconds = 0;
    }
  }
};


async function cells(page: Page): Promise<string> {
  return page.evaluate(() => [...document.querySelectorAll<HTMLElement>('[data-testid="grid"] .cell')].map((e) => e.dataset.state![0]).join(''));
}

async function countdown(page: Page): Promise<number> {
  const [m, s] = ((await page.getByTestId('countdown').textContent()) ?? '').trim().split(':').map(Number);
  return m * 60 + s;
}

async function sessionId(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/session')).json()) as { session_id: string }).session_id);
}

async function skipPuzzle(page: Page, played: Played): Promise<void> {
  await page.getByTestId('skip').click();
  await page.getByTestId('confirm-yes').click();
  played.moves.push('skip');
}

function expectExactlyOnce(log: Record<string, any>[], played: Played): void {
  const client = log.filter((e) => e.origin === 'client');
  expect(client.map((e) => e.seq)).toEqual(client.map((_, i) => i + 1));
  expect(client.filter((e) => e.type === 'move').map((e) => e.payload.move.type)).toEqual(played.moves);
}

describe.each(STORES)('the participant client keeps every action (%s)', (store) => {
  const study = studyFixture(tweak, { store });

  it('resumes after a reload with the same step, board, undo history and clock', async () => {
    const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const mouse = new Driver(page, 'mouse');
    const played: Played = { moves: [] };
    await page.goto(study.server.url);
    await waitForStep(page, 'warmup');
    await mouse.fill(0, 0);
    await mouse.fill(0, 1);
    await mouse.cross(1, 0);
    await mouse.stroke(2, 0, 2, 3);
    await mouse.undo();
    await mouse.cross(3, 3);
    played.moves.push('fill', 'fill', 'cross', 'stroke', 'undo', 'cross');
    const before = await cells(page);
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status')).toBe('saved');
    const left = await countdown(page);
    await page.waitForTimeout(1_200);

    await page.reload();
    await waitForStep(page, 'warmup');
    expect(await cells(page)).toBe(before);
    const after = await countdown(page);
    expect(after).toBeLessThan(left);
    expect(after).toBeGreaterThan(left - 15);
    // The undo history survived: undo takes back the cross, then the earlier cross.
    await mouse.undo();
    await mouse.undo();
    played.moves.push('undo', 'undo');
    expect((await cells(page)).slice(0, 11)).toBe('ffuuuuuuuuu');
    await skipPuzzle(page, played);

    // Mid-puzzle, reloading at once (events may still be in the outbox): nothing is lost.
    await waitForStep(page, 'puzzle');
    await mouse.fill(4, 4);
    await mouse.stroke(5, 1, 5, 6);
    await mouse.cross(6, 6);
    await mouse.undo();
    played.moves.push('fill', 'stroke', 'cross', 'undo');
    const mid = await cells(page);
    await page.reload();
    await waitForStep(page, 'puzzle');
    expect(await cells(page)).toBe(mid);
    expect(await page.getByTestId('undo').isEnabled()).toBe(true);
    await mouse.undo();
    played.moves.push('undo');
    expect((await cells(page)).slice(50, 60)).toBe('uuuuuuuuuu');
    // Leaving and coming back to the window is logged (the browser's own events, fired here by hand).
    await page.evaluate(() => {
      window.dispatchEvent(new Event('blur'));
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('focus'));
    });
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status')).toBe('saved');

    const log = await study.readLog(await sessionId(page));
    expectExactlyOnce(log, played);
    expect(log.filter((e) => e.type === 'client_start')).toHaveLength(3);
    expect(log.filter((e) => e.type === 'step_start' && e.phase === 'warmup')).toHaveLength(1);
    const env = log.filter((e) => e.type === 'focus' || e.type === 'visibility').map((e) => [e.type, e.payload.focused ?? e.payload.state]);
    expect(env.slice(-3)).toEqual([
      ['focus', false],
      ['visibility', 'visible'],
      ['focus', true],
    ]);
    await context.close();
  });

  it('keeps one window per session: a second window takes over, the first stops logging', async () => {
    const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const first = await context.newPage();
    const played: Played = { moves: [] };
    await first.goto(study.server.url);
    await waitForStep(first, 'warmup');
    await new Driver(first, 'mouse').fill(0, 0);
    played.moves.push('fill');
    const second = await context.newPage();
    await second.goto(study.server.url);
    await waitForStep(second, 'warmup');
    await first.getByTestId('elsewhere').waitFor();
    expect(await cells(second)).toMatch(/^f/);
    await new Driver(second, 'mouse').fill(0, 1);
    played.moves.push('fill');
    await expect.poll(() => second.getByTestId('save-status').getAttribute('data-status')).toBe('saved');
    // Back in the first window: it reloads, takes over, and sees both moves.
    await first.getByRole('button', { name: 'Continue here' }).click();
    await waitForStep(first, 'warmup');
    await second.getByTestId('elsewhere').waitFor();
    expect((await cells(first)).slice(0, 2)).toBe('ff');
    await new Driver(first, 'mouse').cross(0, 2);
    played.moves.push('cross');
    await expect.poll(() => first.getByTestId('save-status').getAttribute('data-status')).toBe('saved');
    expectExactlyOnce(await study.readLog(await sessionId(first)), played);
    await context.close();
  });

  it('plays on through a network cut, sends everything exactly once, and completes only when all is held', async () => {
    const context = await study.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const mouse = new Driver(page, 'mouse');
    const played: Played = { moves: [] };
    await page.goto(study.server.url);
    await waitForStep(page, 'warmup');
    await skipPuzzle(page, played);
    await waitForStep(page, 'puzzle');
    const id = await sessionId(page);

    // Cut the event channel: the participant keeps playing, the indicator says offline.
    let sendAttempts = 0;
    const cut = (route: { abort: (code?: string) => Promise<void> }) => {
      sendAttempts++;
      return route.abort('internetdisconnected');
    };
    await page.route('**/api/session/events', cut);
    for (let c = 0; c < 6; c++) {
      await mouse.fill(0, c);
      played.moves.push('fill');
    }
    await mouse.stroke(1, 0, 1, 5);
    await mouse.undo();
    await mouse.cross(2, 2);
    played.moves.push('stroke', 'undo', 'cross');
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status')).toBe('offline');
    await page.setViewportSize({ width: 1100, height: 850 });
    await page.waitForTimeout(500);
    // Reloading while offline rebuilds the board from the browser's own outbox.
    const offlineBoard = await cells(page);
    await page.reload();
    await waitForStep(page, 'puzzle');
    expect(await cells(page)).toBe(offlineBoard);
    await mouse.fill(3, 3);
    played.moves.push('fill');

    // Restore: the outbox drains with its retries; the study.server keeps each event once.
    await page.unroute('**/api/session/events', cut);
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 20_000 }).toBe('saved');
    const log = await study.readLog(id);
    expectExactlyOnce(log, played);
    expect(log.some((e) => e.type === 'resize' && e.payload.width === 1100)).toBe(true);

    // Cut again through the end: the completion screen waits, and shows the code only once everything is held.
    await page.route('**/api/session/events', cut);
    await skipPuzzle(page, played);
    await waitForStep(page, 'rating');
    await answerSurvey(page, { difficulty: 'N/A', guessing: 'Never' });
    await waitForStep(page, 'puzzle');
    await mouse.fill(9, 9);
    played.moves.push('fill');
    await skipPuzzle(page, played);
    await waitForStep(page, 'rating');
    await answerSurvey(page, { difficulty: 'N/A', guessing: 'Never' });
    await waitForStep(page, 'complete');
    await page.getByTestId('finishing').waitFor();
    // Positive control for "no code yet": the page is alive and has tried to send its events again since the
    // finishing screen appeared (and failed), rather than the check running before anything could have happened.
    const attemptsAtFinish = sendAttempts;
    await expect.poll(() => sendAttempts, { timeout: 20_000 }).toBeGreaterThan(attemptsAtFinish);
    expect(await page.getByTestId('completion-code').count()).toBe(0);
    await page.unroute('**/api/session/events', cut);
    await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 20_000 }).toBe(study.config.completion.code);
    const final = await study.readLog(id);
    expectExactlyOnce(final, played);
    expect(final.at(-1)!.type).toBe('session_complete');
    expect(final.filter((e) => e.type === 'rating')).toHaveLength(2);
    await context.close();
  });
});
