// Test support: a scripted participant that plays the study in a real browser page, by mouse, touch or keyboard.
import type { CDPSession, Page } from 'playwright-core';

export interface Played {
  /** Moves the participant made that a log must contain, in order, as move types. */
  moves: string[];
}

export type InputMode = 'mouse' | 'touch' | 'keyboard';

async function cellCenter(page: Page, r: number, c: number) {
  const box = await page.getByTestId(`cell-${r}-${c}`).boundingBox();
  if (!box) throw new Error(`cell ${r},${c} not visible`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Press Tab until the focused element is inside `selector` (keyboard-only navigation). */
export async function tabTo(page: Page, selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => !!document.activeElement?.closest(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Drives the board and buttons with one kind of input, the way a participant with that device would. */
export class Driver {
  private cdp: CDPSession | null = null;
  constructor(
    readonly page: Page,
    readonly mode: InputMode,
  ) {}

  private async touch(): Promise<CDPSession> {
    this.cdp ??= await this.page.context().newCDPSession(this.page);
    return this.cdp;
  }

  private async touchPath(points: { x: number; y: number }[], holdMs = 0): Promise<void> {
    const cdp = await this.touch();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [points[0]] });
    if (holdMs) await this.page.waitForTimeout(holdMs);
    // Move at a finger's pace and rest before lifting: a fast swipe would count as a fling, and Chromium swallows the
    // click of the next tap (it only stops the fling).
    for (const p of points.slice(1)) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [p] });
      await this.page.waitForTimeout(25);
    }
    if (points.length > 1) await this.page.waitForTimeout(120);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  /** Activate a button by test id: click, tap, or Tab to it and press Enter. */
  async press(testId: string): Promise<void> {
    const sel = `[data-testid="${testId}"]`;
    if (this.mode === 'mouse') await this.page.locator(sel).click();
    else if (this.mode === 'touch') await this.page.locator(sel).tap();
    else {
      await tabTo(this.page, sel);
      await this.page.keyboard.press('Enter');
    }
  }

  private async cursorTo(r: number, c: number): Promise<void> {
    const grid = this.page.getByTestId('grid');
    if (!(await grid.evaluate((el) => el === document.activeElement))) await tabTo(this.page, '[data-testid="grid"]');
    const at = ((await grid.getAttribute('aria-activedescendant')) ?? 'cell-0-0').split('-').slice(1).map(Number);
    const keys: string[] = [];
    for (let i = at[0]; i < r; i++) keys.push('ArrowDown');
    for (let i = at[0]; i > r; i--) keys.push('ArrowUp');
    for (let i = at[1]; i < c; i++) keys.push('ArrowRight');
    for (let i = at[1]; i > c; i--) keys.push('ArrowLeft');
    for (const k of keys) await this.page.keyboard.press(k);
  }

  async fill(r: number, c: number): Promise<void> {
    if (this.mode === 'mouse') await this.page.getByTestId(`cell-${r}-${c}`).click();
    else if (this.mode === 'touch') {
      await this.setTool('fill');
      const p = await cellCenter(this.page, r, c);
      await this.touchPath([p]);
    } else {
      await this.cursorTo(r, c);
      await this.page.keyboard.press('Space');
    }
  }

  async cross(r: number, c: number): Promise<void> {
    if (this.mode === 'mouse') await this.page.getByTestId(`cell-${r}-${c}`).click({ button: 'right' });
    else if (this.mode === 'touch') {
      await this.setTool('cross');
      await this.touchPath([await cellCenter(this.page, r, c)]);
      await this.setTool('fill');
    } else {
      await this.cursorTo(r, c);
      await this.page.keyboard.press('x');
    }
  }

  /** Touch only: a long press on a cell in Fill mode crosses it. */
  async longPressCross(r: number, c: number): Promise<void> {
    await this.setTool('fill');
    await this.touchPath([await cellCenter(this.page, r, c)], 700);
  }

  private async setTool(tool: 'fill' | 'cross'): Promise<void> {
    const button = this.page.getByTestId(`tool-${tool}`);
    if ((await button.getAttribute('aria-checked')) !== 'true') await button.tap();
  }

  /** Paint a straight stroke (filled) from one cell to another along a row or column. */
  async stroke(r0: number, c0: number, r1: number, c1: number): Promise<void> {
    if (this.mode === 'mouse') {
      const a = await cellCenter(this.page, r0, c0);
      const b = await cellCenter(this.page, r1, c1);
      await this.page.mouse.move(a.x, a.y);
      await this.page.mouse.down();
      await this.page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 3 });
      await this.page.mouse.move(b.x, b.y, { steps: 3 });
      await this.page.mouse.up();
    } else if (this.mode === 'touch') {
      await this.setTool('fill');
      const a = await cellCenter(this.page, r0, c0);
      const b = await cellCenter(this.page, r1, c1);
      const pts = [a];
      for (let i = 1; i <= 6; i++) pts.push({ x: a.x + ((b.x - a.x) * i) / 6, y: a.y + ((b.y - a.y) * i) / 6 });
      await this.touchPath(pts);
    } else {
      await this.cursorTo(r0, c0);
      const key = r1 > r0 ? 'ArrowDown' : r1 < r0 ? 'ArrowUp' : c1 > c0 ? 'ArrowRight' : 'ArrowLeft';
      for (let i = 0; i < Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0)); i++) await this.page.keyboard.press(`Shift+${key}`);
      await this.page.keyboard.press('Space');
    }
  }

  async undo(): Promise<void> {
    if (this.mode === 'keyboard') {
      await this.cursorTo(0, 0);
      await this.page.keyboard.press('z');
    } else await this.press('undo');
  }

  /** Press a button that asks for confirmation, then confirm. */
  async confirmed(testId: string): Promise<void> {
    await this.press(testId);
    await this.press('confirm-yes');
  }
}

/** Fill a solution: the first run of length >= 2 (mouse: >= 3) in each row is one stroke, other filled cells single. */
export async function solveBoard(page: Page, solution: string[], played: Played, driver: Driver = new Driver(page, 'mouse')): Promise<void> {
  const minRun = driver.mode === 'mouse' ? 3 : 2;
  for (let r = 0; r < solution.length; r++) {
    const row = solution[r];
    let stroked = false;
    for (let c = 0; c < row.length; ) {
      if (row[c] !== '#') {
        c++;
        continue;
      }
      let end = c;
      while (end + 1 < row.length && row[end + 1] === '#') end++;
      if (!stroked && end - c + 1 >= minRun) {
        await driver.stroke(r, c, r, end);
        played.moves.push('stroke');
        stroked = true;
      } else
        for (let k = c; k <= end; k++) {
          await driver.fill(r, k);
          played.moves.push('fill');
        }
      c = end + 1;
    }
  }
}

/**
 * The tutorial's checklist, each control once: cross, fill, drag, undo, hint (which reveals a cell), reset, submit;
 * then Continue. Cells are chosen from the solution so that nothing depends on the hint's choice.
 */
export async function doTutorial(driver: Driver, solution: string[], played: Played, opts: { longPress?: boolean } = {}): Promise<void> {
  const page = driver.page;
  const emptyCol = solution[0].indexOf('.');
  if (opts.longPress) await driver.longPressCross(0, emptyCol);
  else await driver.cross(0, emptyCol);
  played.moves.push('cross');
  const filledCol = solution[0].indexOf('#');
  await driver.fill(0, filledCol);
  played.moves.push('fill');
  const full = solution.findIndex((row) => /^#+$/.test(row));
  await driver.stroke(full, 0, full, solution[full].length - 1);
  played.moves.push('stroke');
  await driver.undo();
  played.moves.push('undo');
  await driver.press('hint');
  played.moves.push('hint');
  await page.getByTestId('hint-panel').waitFor();
  played.moves.push('reveal');
  await driver.confirmed('reset');
  played.moves.push('reset');
  await driver.press('submit');
  played.moves.push('submit');
  await page.getByTestId('feedback').waitFor();
  await page.waitForFunction(() => !(document.querySelector('[data-testid="continue"]') as HTMLButtonElement | null)?.disabled);
  await driver.press('continue');
}

/** Answer a survey by mouse/touch (check/fill the inputs) or by keyboard alone, then submit it. */
export async function answerSurvey(page: Page, answers: Record<string, string | string[]>, mode: InputMode = 'mouse'): Promise<void> {
  for (const [id, value] of Object.entries(answers)) {
    const sel = `[data-testid="item-${id}"]`;
    const item = page.locator(sel);
    const textual = item.locator('textarea, input[type="text"], input[type="number"]');
    if (mode !== 'keyboard') {
      if (Array.isArray(value)) for (const v of value) await item.locator(`input[value="${v}"]`).check();
      else if ((await textual.count()) > 0) await textual.fill(value);
      else if (mode === 'touch') await item.locator(`input[value^="${value}"]`).first().locator('xpath=..').tap();
      else await item.locator(`input[value^="${value}"]`).first().check();
      continue;
    }
    if ((await textual.count()) > 0) {
      await tabTo(page, sel);
      await page.keyboard.type(value as string);
    } else if (Array.isArray(value)) {
      const boxes = item.locator('input[type="checkbox"]');
      const n = await boxes.count();
      await tabTo(page, sel);
      for (let i = 0; i < n; i++) {
        const v = await page.evaluate(() => (document.activeElement as HTMLInputElement).value);
        if (value.includes(v)) await page.keyboard.press('Space');
        if (i < n - 1) await page.keyboard.press('Tab');
      }
    } else {
      await tabTo(page, sel);
      await page.keyboard.press('Space');
      for (let i = 0; i < 20; i++) {
        const v = await page.evaluate(() => (document.activeElement as HTMLInputElement).value);
        if (v.startsWith(value)) break;
        await page.keyboard.press('ArrowRight');
      }
    }
  }
  if (mode === 'keyboard') {
    await tabTo(page, '[data-testid="survey-submit"]');
    await page.keyboard.press('Enter');
  } else if (mode === 'touch') await page.getByTestId('survey-submit').tap();
  else await page.getByTestId('survey-submit').click();
}

export async function stepKind(page: Page): Promise<string> {
  return (await page.locator('main.app').getAttribute('data-step-kind')) ?? 'none';
}

export async function waitForStep(page: Page, kind: string, timeout = 20_000): Promise<void> {
  await page.waitForFunction((k) => document.querySelector('main.app')?.getAttribute('data-step-kind') === k, kind, { timeout });
}
