// End to end: the participant's screens as a careful usability test left them (issue 19), on a desktop (1280x800,
// mouse and keyboard) and a phone (390x844, touch): each point checked on the viewport where it showed, with
// screenshots kept under results/screenshots/participant-polish/ for a person to look at.
// SQLite only: this is about the screens; the events it reads back go the way the study and client-study suites prove
// on both stores.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { cluesOf, gridFromRows } from '../../shared/nonogram/grid.ts';
import { repoRoot } from '../support/server.ts';
import { studyFixture } from '../support/study.ts';
import { Driver, doTutorial, stepKind, tabTo, waitForStep, type Played } from '../support/participant.ts';

const SHOTS = join(repoRoot, 'results', 'screenshots', 'participant-polish');

/**
 * A 15x15 practice puzzle (the warmup here), so that the phone's zoom is tried on a large board; line reasoning alone
 * solves it (as the study's puzzles), so a hint can explain any mistake on it by a line's clue.
 */
const BIG = Array.from({ length: 15 }, (_, r) => Array.from({ length: 15 }, (_, c) => ((r + c) % 4 !== 0 && (r * c) % 3 !== 1 ? '#' : '.')).join(''));

const study = studyFixture((c) => {
  const clues = cluesOf(gridFromRows(BIG));
  c.practice_puzzles.push({ id: 'big', width: 15, height: 15, rows: clues.rows, cols: clues.cols, solution: BIG });
  for (const phase of c.phases) {
    if (phase.kind === 'warmup') {
      phase.puzzle = 'big';
      phase.cap_seconds = 900;
    }
  }
});

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

beforeAll(() => {
  mkdirSync(SHOTS, { recursive: true });
  console.log(`participant-polish: screenshots in ${SHOTS}`);
});

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Console errors and uncaught page errors, from the very first request on. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => { errors.push(String(e)); console.log('PAGEERROR', e.stack); });
  return errors;
}

/** Whether the element is wholly inside the viewport and not covered by anything at its centre. */
async function inView(page: Page, selector: string): Promise<{ inside: boolean; uncovered: boolean; box: { x: number; y: number; width: number; height: number } }> {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight + 0.5 && r.right <= window.innerWidth + 0.5 && r.width > 0;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { inside, uncovered: !!hit && (hit === el || el.contains(hit)), box: { x: r.x, y: r.y, width: r.width, height: r.height } };
  });
}

/** The tutorial's checklist: every task and the Continue button on screen together; the count matches the open tasks. */
async function expectChecklistBesideContinue(page: Page): Promise<void> {
  const ids = await page.locator('[data-testid^="task-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
  expect(ids.length).toBeGreaterThanOrEqual(6);
  for (const id of [...ids, 'continue']) {
    const v = await inView(page, `[data-testid="${id}"]`);
    expect({ id, ...v, box: undefined }).toEqual({ id, inside: true, uncovered: true, box: undefined });
  }
  const open = await page.locator('[data-testid^="task-"][data-done="false"]').count();
  const label = await page.getByTestId('continue').textContent();
  expect(label).toBe(open > 0 ? `Continue (${open} to go)` : 'Continue to the warmup');
  // Next to each other: the last task sits right above the button.
  const last = await inView(page, `[data-testid="${ids[ids.length - 1]}"]`);
  const button = await inView(page, '[data-testid="continue"]');
  expect(button.box.y - (last.box.y + last.box.height)).toBeLessThan(40);
  expect(button.box.y).toBeGreaterThan(last.box.y);
}

/** The grid's focus ring: drawn (outline) or not, and the box it covers. */
async function focusRing(page: Page): Promise<{ drawn: boolean; focused: boolean; focusVisible: boolean; left: number; right: number; top: number; bottom: number }> {
  return page.getByTestId('grid').evaluate((el) => {
    const s = getComputedStyle(el);
    const width = parseFloat(s.outlineWidth) || 0;
    const offset = parseFloat(s.outlineOffset) || 0;
    const drawn = s.outlineStyle !== 'none' && width > 0;
    const r = el.getBoundingClientRect();
    const out = drawn ? width + offset : 0;
    return { drawn, focused: document.activeElement === el, focusVisible: el.matches(':focus-visible'), left: r.left - out, right: r.right + out, top: r.top - out, bottom: r.bottom + out };
  });
}

async function tapAt(cdp: CDPSession, x: number, y: number): Promise<void> {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

async function expectRadiosAligned(page: Page, itemId: string, axis: 'y' | 'x'): Promise<void> {
  const boxes = await page.locator(`[data-testid="item-${itemId}"] input[type="radio"]`).evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes.length).toBe(5);
  const values = boxes.map((b) => (axis === 'y' ? b.top : b.left));
  expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
}

async function sessionIdOf(page: Page): Promise<string> {
  return page.evaluate(async () => ((await (await fetch('/api/session/current')).json()) as { session: { session_id: string } }).session.session_id);
}

describe('participant polish', () => {
  it('desktop: a first visit without console errors, texts for the mouse, the checklist beside Continue with the hint open, a keyboard-only focus ring, hints that explain a mistake then offer the fix, aligned radios', async () => {
    const context: BrowserContext = await study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const first: number[] = [];
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/session')) first.push(r.status());
    });
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').waitFor();
    await shot(page, 'desktop-1-consent');
    expect(first.every((s) => s < 400)).toBe(true);
    const driver = new Driver(page, 'mouse');
    await driver.press('consent-agree');
    await waitForStep(page, 'tutorial');

    // Instructions for the mouse: no taps, long presses or modes.
    const instructions = page.getByTestId('instructions');
    expect(await instructions.getAttribute('data-input')).toBe('pointer');
    expect(await instructions.textContent()).toMatch(/right-click/);
    expect(await instructions.textContent()).not.toMatch(/tap|long-press|Cross mode/i);
    expect(await page.getByTestId('task-cross').textContent()).toMatch(/right-click/);
    await expectChecklistBesideContinue(page);

    // A click focuses the grid without a ring; the keyboard brings the ring (inside the screen) and its own texts.
    await driver.fill(0, 0);
    expect(await focusRing(page)).toMatchObject({ focused: true, drawn: false, focusVisible: false });
    await page.keyboard.press('ArrowRight');
    const ring = await focusRing(page);
    expect(ring).toMatchObject({ focused: true, drawn: true });
    expect(ring.left).toBeGreaterThanOrEqual(0);
    expect(ring.right).toBeLessThanOrEqual(1280);
    // Reached by Tab: the ring at once, and the browser's own :focus-visible agrees.
    await page.getByTestId('grid').evaluate((el) => (el as HTMLElement).blur());
    await tabTo(page, '[data-testid="grid"]');
    expect(await focusRing(page)).toMatchObject({ focused: true, drawn: true, focusVisible: true });
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Space');
    await expect.poll(() => instructions.getAttribute('data-input')).toBe('keyboard');
    expect(await instructions.textContent()).toMatch(/Space fills/);
    await shot(page, 'desktop-2-tutorial-keyboard-ring');
    await page.keyboard.press('z');
    await page.keyboard.press('z');

    // The hint panel open (and Submit's feedback too): every task and the Continue button stay on screen, uncovered.
    await driver.press('submit');
    await page.getByTestId('feedback').waitFor();
    await driver.press('hint');
    await page.getByTestId('hint-panel').waitFor();
    expect(await page.getByTestId('feedback').isVisible()).toBe(true);
    expect(await instructions.getAttribute('data-input')).toBe('pointer');
    await shot(page, 'desktop-3-tutorial-hint-open');
    await expectChecklistBesideContinue(page);
    await driver.press('undo');

    const played: Played = { moves: [] };
    await doTutorial(driver, study.solutionOf('tutorial'), played);
    await waitForStep(page, 'warmup');

    // A mistake, then a hint: why it is wrong in terms of a line's clue, and the fix on the participant's word.
    const sessionId = await sessionIdOf(page);
    const wrongCol = BIG[0].indexOf('.');
    await driver.fill(0, wrongCol);
    await driver.press('hint');
    await page.getByTestId('hint-panel').waitFor();
    const text = (await page.getByTestId('hint-text').textContent())!;
    expect(text).toContain(`row 1, column ${wrongCol + 1}`);
    expect(text).toMatch(/(Row|Column) \d+('s clue [\d ]+| has clue 0)/);
    expect(text).not.toMatch(/^No line/);
    expect(text).toMatch(/It should be empty: cross it\.$/);
    expect(await page.getByTestId(`cell-0-${wrongCol}`).getAttribute('data-state')).toBe('filled');
    // Where to look: the heading names the wrong cell first, and the cell itself is framed in red (issue 32).
    expect(await page.locator('[data-testid="hint-panel"] strong').first().textContent()).toMatch(new RegExp(`^Hint · Mistake at row 1, column ${wrongCol + 1}\\b`));
    const frame = await page.locator('.mark.hint-wrong').evaluate((el) => el.getBoundingClientRect());
    const cell = await page.getByTestId(`cell-0-${wrongCol}`).evaluate((el) => el.getBoundingClientRect());
    expect(Math.abs(frame.x - cell.x) + Math.abs(frame.y - cell.y)).toBeLessThan(3);
    const fix = page.getByTestId('hint-fix');
    expect(await fix.textContent()).toBe('Cross this cell for me');
    await shot(page, 'desktop-4-error-hint');
    await fix.click();
    await expect.poll(() => page.getByTestId(`cell-0-${wrongCol}`).getAttribute('data-state')).toBe('crossed');
    expect(await fix.count()).toBe(0);
    await expect
      .poll(async () => (await study.readLog(sessionId)).some((e) => e.type === 'move' && e.payload.move.type === 'reveal' && e.source === 'mouse' && e.payload.move.col === wrongCol))
      .toBe(true);
    const shown = (await study.readLog(sessionId)).filter((e) => e.type === 'hint_shown').pop();
    expect(shown?.payload.explanation).toBe(text);

    await driver.confirmed('skip');
    await waitForStep(page, 'survey');
    await expectRadiosAligned(page, 'nonogram_frequency', 'y');
    await expectRadiosAligned(page, 'logic_frequency', 'y');
    await page.getByTestId('item-nonogram_frequency').scrollIntoViewIfNeeded();
    await shot(page, 'desktop-5-survey-radios');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('desktop: the back button mid-puzzle asks first; staying keeps the board, leaving leaves, and the link resumes the work', async () => {
    const context = await study.browser.newContext(DESKTOP);
    const page = await context.newPage();
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').click();
    await waitForStep(page, 'tutorial');
    const driver = new Driver(page, 'mouse');
    await driver.fill(0, 0);
    await expect.poll(() => page.getByTestId('cell-0-0').getAttribute('data-state')).toBe('filled');
    // Back: the page asks, and says the work is kept and how to come back (issue 32).
    await page.goBack();
    const dialog = page.getByRole('alertdialog');
    await expect.poll(() => dialog.textContent()).toMatch(/Leave the study\?.*saved.*open the same link again/);
    await shot(page, 'desktop-6-back-asks');
    await page.getByTestId('confirm-no').click();
    expect(await dialog.count()).toBe(0);
    expect(await page.getByTestId('cell-0-0').getAttribute('data-state')).toBe('filled');
    expect(await stepKind(page)).toBe('tutorial');
    // Asked again, and this time the participant leaves: the browser goes back out of the study.
    await page.goBack();
    await page.getByTestId('confirm-yes').click();
    await expect.poll(() => page.url()).toBe('about:blank');
    // The same link again: the tutorial, with the filled cell.
    await page.goto(study.server.url);
    await waitForStep(page, 'tutorial');
    await expect.poll(() => page.getByTestId('cell-0-0').getAttribute('data-state')).toBe('filled');
    await context.close();
  });

  it('phone: no console errors, texts for touch, the checklist beside Continue on the first screen, a zoomed 15x15 board whose every cell takes a tap, no ring after a tap, aligned radios', async () => {
    const context = await study.browser.newContext(PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(study.server.url);
    await page.getByTestId('consent-agree').waitFor();
    const driver = new Driver(page, 'touch');
    await driver.press('consent-agree');
    await waitForStep(page, 'tutorial');
    await page.evaluate(() => window.scrollTo(0, 0));

    const instructions = page.getByTestId('instructions');
    expect(await instructions.getAttribute('data-input')).toBe('touch');
    expect(await instructions.textContent()).toMatch(/long-press/);
    expect(await instructions.textContent()).not.toMatch(/click/i);
    expect(await page.getByTestId('task-cross').textContent()).toMatch(/long-press/);
    // The first screen, before any scrolling: the checklist and Continue are there.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await shot(page, 'phone-1-tutorial-first-screen');
    await expectChecklistBesideContinue(page);
    // Every control the checklist asks for is on that first screen too, above the checklist bar (issue 32): the
    // board box is as tall as the board needs, and Reset sits beside Fill / Cross.
    for (const id of ['grid', 'tool-fill', 'tool-cross', 'undo', 'hint', 'submit', 'reset']) {
      const v = await inView(page, `[data-testid="${id}"]`);
      expect({ id, inside: v.inside, uncovered: v.uncovered }).toEqual({ id, inside: true, uncovered: true });
    }

    // Submit's answer comes into view, uncovered by the checklist bar (issue 32).
    await driver.press('submit');
    await page.getByTestId('feedback').waitFor();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.querySelector('[data-testid="feedback"]')!;
          const r = el.getBoundingClientRect();
          const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.top >= 0 && r.bottom <= window.innerHeight && !!top && el.contains(top);
        }),
      )
      .toBe(true);
    await shot(page, 'phone-1b-tutorial-submit-answer');
    await page.evaluate(() => window.scrollTo(0, 0));
    await driver.press('hint');
    await page.getByTestId('hint-panel').waitFor();
    await page.getByTestId('hint-panel').scrollIntoViewIfNeeded();
    await shot(page, 'phone-2-tutorial-hint-open');
    await expectChecklistBesideContinue(page);
    await driver.press('undo');
    await page.evaluate(() => window.scrollTo(0, 0));

    const played: Played = { moves: [] };
    await doTutorial(driver, study.solutionOf('tutorial'), played, { longPress: true });
    await waitForStep(page, 'warmup');
    await page.evaluate(() => window.scrollTo(0, 0));

    // Unzoomed, a 15x15 board's cells are far under a touch target; the zoom control brings them to 44 px or more.
    const fitted = Number(await page.locator('.board').getAttribute('data-cell-size'));
    expect(fitted).toBeLessThan(44);
    await shot(page, 'phone-3-warmup-fitted');
    // A keyboard (a paired one) shows the ring, inside the screen.
    await page.getByTestId('grid').focus();
    await page.keyboard.press('ArrowRight');
    const ring = await focusRing(page);
    expect(ring).toMatchObject({ focused: true, drawn: true });
    expect(ring.left).toBeGreaterThanOrEqual(0);
    expect(ring.right).toBeLessThanOrEqual(390);
    await shot(page, 'phone-3b-warmup-keyboard-ring');

    await page.getByTestId('zoom').tap();
    await expect.poll(async () => Number(await page.locator('.board').getAttribute('data-cell-size'))).toBeGreaterThanOrEqual(44);
    expect(await page.getByTestId('zoom').getAttribute('aria-pressed')).toBe('true');

    const cdp = await context.newCDPSession(page);
    const box = page.getByTestId('board-box');
    for (let r = 0; r < 15; r++) {
      for (let c = 0; c < 15; c++) {
        const cell = page.getByTestId(`cell-${r}-${c}`);
        const target = await cell.evaluate((el) => {
          el.scrollIntoView({ block: 'center', inline: 'center' });
          const b = el.getBoundingClientRect();
          const x = b.left + b.width / 2;
          const y = b.top + b.height / 2;
          return { x, y, width: b.width, height: b.height, hit: document.elementFromPoint(x, y) === el };
        });
        expect({ r, c, hit: target.hit }).toEqual({ r, c, hit: true });
        expect(Math.min(target.width, target.height)).toBeGreaterThanOrEqual(43);
        await tapAt(cdp, target.x, target.y);
        await expect.poll(() => cell.getAttribute('data-state')).toBe('filled');
      }
    }
    expect(await focusRing(page)).toMatchObject({ focused: true, focusVisible: false });
    // No ring after a tap; the clues of the last row and column are still in view at the far corner.
    expect(await focusRing(page)).toMatchObject({ drawn: false });
    const boxRect = (await box.boundingBox())!;
    for (const id of ['col-clue-14', 'row-clue-14']) {
      const b = (await page.getByTestId(id).boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(boxRect.x - 0.5);
      expect(b.y).toBeGreaterThanOrEqual(boxRect.y - 0.5);
      expect(b.x + b.width).toBeLessThanOrEqual(boxRect.x + boxRect.width + 0.5);
      expect(b.y + b.height).toBeLessThanOrEqual(boxRect.y + boxRect.height + 0.5);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'phone-4-warmup-zoomed-all-tapped');

    // Every cell filled: many are wrong, and the hint explains the first one, then offers the fix.
    await page.getByTestId('hint').tap();
    await page.getByTestId('hint-panel').waitFor();
    expect(await page.getByTestId('hint-text').textContent()).toMatch(/(Row|Column) \d+.*It should be empty: cross it\.$/);
    await page.getByTestId('hint-panel').scrollIntoViewIfNeeded();
    await shot(page, 'phone-5-error-hint');
    await page.getByTestId('hint-fix').tap();
    expect(await page.getByTestId('hint-fix').count()).toBe(0);

    await driver.confirmed('skip');
    await waitForStep(page, 'survey');
    await expectRadiosAligned(page, 'nonogram_frequency', 'x');
    await page.getByTestId('item-nonogram_frequency').scrollIntoViewIfNeeded();
    await shot(page, 'phone-6-survey-radios');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [device, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`${device}: a bad kiosk label or panel id names the field and what is allowed, and starts nothing`, async () => {
      const context = await study.browser.newContext(options);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const starts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/sessions') starts.push(r.url());
      });

      await page.goto(`${study.server.url}/?mode=kiosk&label=${encodeURIComponent('<P-017>')}`);
      const problem = page.getByTestId('link-problem');
      await problem.waitFor();
      const said = (await problem.textContent())!;
      expect(said).toContain('participant label');
      expect(said).toContain('"<P-017>"');
      expect(said).toMatch(/cannot contain < or >/);
      expect(said).toMatch(/1 to 100 characters/);
      expect(await page.textContent('body')).not.toMatch(/answers so far are saved|Something went wrong/);
      expect(await page.getByTestId('kiosk-label').inputValue()).toBe('<P-017>');
      await shot(page, `${device}-kiosk-bad-label`);
      // Corrected at the kiosk: the study starts.
      await page.getByTestId('kiosk-label').fill('P-017');
      expect(await problem.count()).toBe(0);
      if (device === 'phone') await page.getByTestId('kiosk-start').tap();
      else await page.getByTestId('kiosk-start').click();
      await page.getByTestId('consent-agree').waitFor();
      expect(starts.length).toBe(1);
      await context.clearCookies();

      await page.goto(`${study.server.url}/?PROLIFIC_PID=${encodeURIComponent('5f3a b!')}&STUDY_ID=abc`);
      await problem.waitFor();
      const panel = (await problem.textContent())!;
      expect(panel).toContain('participant id (PROLIFIC_PID)');
      expect(panel).toContain('"5f3a b!"');
      expect(panel).toContain('letters, digits and _ . : -');
      expect(await page.textContent('body')).not.toMatch(/answers so far are saved|Something went wrong/);
      await shot(page, `${device}-panel-bad-id`);
      expect(starts.length).toBe(1);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
