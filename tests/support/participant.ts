// Test support: a scripted participant that plays the study in a real browser page.
import type { Page } from 'playwright-core';

export interface Played {
  /** Moves the participant made that a log must contain, in order, as move types. */
  moves: string[];
}

async function cellBox(page: Page, r: number, c: number) {
  const box = await page.getByTestId(`cell-${r}-${c}`).boundingBox();
  if (!box) throw new Error(`cell ${r},${c} not visible`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Fill a solution: the first run of length >= 3 in each row is dragged, every other filled cell clicked. */
export async function solveBoard(page: Page, solution: string[], played: Played): Promise<void> {
  for (let r = 0; r < solution.length; r++) {
    const row = solution[r];
    let dragged = false;
    for (let c = 0; c < row.length; ) {
      if (row[c] !== '#') {
        c++;
        continue;
      }
      let end = c;
      while (end + 1 < row.length && row[end + 1] === '#') end++;
      if (!dragged && end - c + 1 >= 3) {
        const a = await cellBox(page, r, c);
        const b = await cellBox(page, r, end);
        await page.mouse.move(a.x, a.y);
        await page.mouse.down();
        await page.mouse.move((a.x + b.x) / 2, a.y, { steps: 3 });
        await page.mouse.move(b.x, b.y, { steps: 3 });
        await page.mouse.up();
        played.moves.push('stroke');
        dragged = true;
      } else {
        for (let k = c; k <= end; k++) {
          await page.getByTestId(`cell-${r}-${k}`).click();
          played.moves.push('fill');
        }
      }
      c = end + 1;
    }
  }
}

export async function answerSurvey(page: Page, answers: Record<string, string | string[]>): Promise<void> {
  for (const [id, value] of Object.entries(answers)) {
    const item = page.getByTestId(`item-${id}`);
    if (Array.isArray(value)) for (const v of value) await item.locator(`input[value="${v}"]`).check();
    else if ((await item.locator('textarea, input[type="text"], input[type="number"]').count()) > 0) await item.locator('textarea, input[type="text"], input[type="number"]').fill(value);
    else await item.locator(`input[value^="${value}"]`).first().check();
  }
  await page.getByTestId('survey-submit').click();
}

export async function stepKind(page: Page): Promise<string> {
  return (await page.locator('main.app').getAttribute('data-step-kind')) ?? 'none';
}

export async function waitForStep(page: Page, kind: string): Promise<void> {
  await page.waitForFunction((k) => document.querySelector('main.app')?.getAttribute('data-step-kind') === k, kind, { timeout: 20_000 });
}
