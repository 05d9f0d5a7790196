// A tap on a control right after a fast stroke on the board registers (issue 32): Chromium takes a fast swipe for a
// fling and may swallow the click of the next tap (the tap only stops the fling), so the page gives such a tap its
// click (client/src/tapRescue.ts).
import { describe, expect, it } from 'vitest';
import { studyFixture } from '../support/study.ts';
import { Driver, waitForStep } from '../support/participant.ts';

const study = studyFixture(() => {});
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

describe('touch', () => {
  it('a tap on Undo 100 ms after a fast stroke undoes the stroke, and acts once', async () => {
    const context = await study.browser.newContext(PHONE);
    const page = await context.newPage();
    await page.goto(study.server.url);
    const driver = new Driver(page, 'touch');
    await page.getByTestId('consent-agree').waitFor();
    await driver.press('consent-agree');
    await waitForStep(page, 'tutorial');
    const center = async (testId: string) => {
      const b = (await page.getByTestId(testId).boundingBox())!;
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    const cdp = await context.newCDPSession(page);
    const tap = async (p: { x: number; y: number }) => {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [p] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    };
    for (let round = 0; round < 3; round++) {
      // The board and Undo both on screen, Undo uncovered (the checklist bar stays clear of it).
      // (The tutorial's checklist bar is sticky at the bottom: scroll until Undo sits just above it, as a finger would.)
      await page.evaluate(() => {
        const undo = document.querySelector('[data-testid="undo"]')!.getBoundingClientRect();
        const bar = document.querySelector('[data-testid="finish"]')?.getBoundingClientRect();
        window.scrollBy(0, undo.bottom - (bar ? Math.min(bar.top, window.innerHeight) : window.innerHeight) + 8);
      });
      const u = await center('undo');
      expect(await page.evaluate(({ x, y }) => !!document.elementFromPoint(x, y)?.closest('[data-testid="undo"]'), u)).toBe(true);
      const a = await center('cell-0-0');
      const b = await center('cell-0-3');
      // A fast stroke: no pause before lifting the finger.
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [a] });
      for (let i = 1; i <= 6; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: a.x + ((b.x - a.x) * i) / 6, y: a.y }] });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await expect.poll(() => page.getByTestId('cell-0-3').getAttribute('data-state')).toBe('filled');
      await page.waitForTimeout(100);
      await tap(u);
      await expect.poll(() => page.getByTestId('cell-0-3').getAttribute('data-state'), { timeout: 3_000 }).not.toBe('filled');
      await page.waitForTimeout(600);
    }
    // Each tap acted once: the server's log holds stroke, undo three times over, nothing more.
    const logged = async () => {
      const state = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { moves_by_step: Record<string, { type: string }[]> });
      return (state.moves_by_step['1'] ?? []).map((m) => m.type).join(' ');
    };
    await expect.poll(logged, { timeout: 10_000 }).toBe('stroke undo stroke undo stroke undo');
    await context.close();
  });
});
