// End to end: whole sessions of the default study in German and in Arabic (right to left), on a desktop and a phone,
// to the completion code. Every screen's visible text is compared with the English catalogue and the study's English
// texts: none may remain. Screenshots are kept in results/screenshots/languages/ for a person to look at.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { en } from '../../shared/i18n/en.ts';
import { CATALOGUES } from '../../shared/i18n/catalogues.ts';
import { hintsEn } from '../../shared/i18n/hints/en.ts';
import { HINT_CATALOGUES } from '../../shared/i18n/hints/catalogues.ts';
import { studyTexts } from '../../shared/i18n/studyTexts.ts';
import { textFor } from '../../shared/study/inputText.ts';
import { StudyConfig } from '../../shared/schema/config.ts';
import { multilingualConfig, repoRoot } from '../support/server.ts';
import { studyFixture } from '../support/study.ts';
import { Driver, answerSurvey, doTutorial, solveBoard, waitForStep, type Played } from '../support/participant.ts';

const SHOTS = join(repoRoot, 'results', 'screenshots', 'languages');
const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

const study = studyFixture(
  (c) => {
    for (const phase of c.phases) {
      if (phase.kind === 'warmup') phase.cap_seconds = 4;
      if (phase.kind === 'puzzles') phase.skip_min_seconds = 0;
    }
  },
  { base: multilingualConfig },
);

beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English a page in `lang` must not show: every catalogue string (its literal parts, placeholders taken out) and
 * every text of the study, where the language says it otherwise; each matched as whole words.
 */
function englishOf(lang: string): { text: string; re: RegExp }[] {
  const config = StudyConfig.parse(multilingualConfig());
  // The page's catalogue and the hints' (the server writes a hint's heading and explanation in the session's language).
  const own = { ...CATALOGUES[lang], ...HINT_CATALOGUES[lang] } as Record<string, string>;
  const texts = config.languages!.texts[lang];
  const out = new Set<string>();
  for (const [key, message] of Object.entries({ ...en, ...hintsEn })) {
    if (own[key] === message) continue;
    // The literal runs of a message (an ICU argument's cases included): each run of two words or more, or a lone word.
    for (const run of message.split(/[{}#]|\b(?:select|plural|other|one|row|filled|crossed)\b,?/)) {
      const t = run.trim().replace(/^[,.:·(]+|[,.:·)]+$/g, '').trim();
      // (a word the language keeps, as German keeps 'Sudoku', is not English left over)
      if (t.length >= 4 && /[A-Za-z]{3}/.test(t) && !own[key].includes(t)) out.add(t);
    }
  }
  for (const slot of studyTexts(config)) {
    for (const kind of ['pointer', 'touch', 'keyboard'] as const) {
      const english = textFor(slot.text, kind);
      const translated = textFor(texts[slot.path] ?? '', kind);
      if (english && english !== translated) out.add(english.split('\n')[0].trim());
    }
  }
  return [...out].map((text) => ({ text, re: new RegExp(`(^|[^\\p{L}])${escape(text)}($|[^\\p{L}])`, 'u') }));
}

/** The English left on the screen (its visible text, the hint panel's heading and explanation included). */
async function englishOnScreen(page: Page, english: { text: string; re: RegExp }[]): Promise<string[]> {
  const visible = await page.evaluate(() => {
    const clone = document.body.cloneNode(true) as HTMLElement;
    document.body.appendChild(clone);
    clone.style.position = 'absolute';
    const text = clone.innerText;
    clone.remove();
    return text;
  });
  return english.filter((e) => e.re.test(visible)).map((e) => e.text);
}

/**
 * Text that does not fit, as a person would see it: a box whose text is cut off (wider than the box that hides its
 * overflow), text past the viewport's edges (the page scrolls sideways), and two texts drawn over each other (the line
 * boxes of different text nodes crossing by more than 4 px both ways; with a dialog open, only the dialog's texts,
 * which are all one sees; a fixed or sticky bar is a layer of its own, which the page scrolls under). Text for screen
 * readers only is left out. Each problem is named by its texts.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const label = (n: Node) => JSON.stringify((n.textContent ?? '').trim().slice(0, 40));
    // Text for screen readers only (.sr-only: a clipped 1 px box) is not on the screen.
    const forScreenReaders = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (getComputedStyle(e).clip === 'rect(0px, 0px, 0px, 0px)') return true;
      return false;
    };
    const shown = (el: Element) => {
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0 && el.getClientRects().length > 0 && !forScreenReaders(el);
    };
    const dialog = document.querySelector('dialog[open], [role="dialog"], [role="alertdialog"]');
    const root = dialog ?? document.body;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, { acceptNode: (n) => (n.textContent!.trim() && n.parentElement && shown(n.parentElement) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT) });
    // The fixed or sticky bar (a phone's tutorial checklist, a top bar) a text is on, if any: the page scrolls under it.
    const layerOf = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return e;
      return null;
    };
    const boxes: { node: Node; rect: DOMRect; layer: Element | null }[] = [];
    const width = document.documentElement.clientWidth;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue;
        boxes.push({ node: n, rect, layer: layerOf(n.parentElement!) });
        if (rect.left < -1 || rect.right > width + 1) problems.push(`past the viewport's edge: ${label(n)}`);
      }
      // Cut off by an ancestor that hides its overflow.
      for (let el: Element | null = n.parentElement; el && el !== document.body; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'auto' && style.overflowX !== 'scroll') {
          problems.push(`cut off: ${label(n)} (${el.scrollWidth} px in ${el.clientWidth} px)`);
          break;
        }
      }
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.node === b.node || a.layer !== b.layer) continue;
        const x = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const y = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        if (x > 4 && y > 4) problems.push(`drawn over each other: ${label(a.node)} and ${label(b.node)}`);
      }
    return [...new Set(problems)];
  });
}

for (const lang of ['de', 'ar'] as const) {
  for (const [device, options] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
    describe(`a whole session in ${lang === 'de' ? 'German' : 'Arabic'} on a ${device}`, () => {
      it(`?lang=${lang}: every screen in ${lang}${lang === 'ar' ? ' (right to left, boards left to right)' : ''}, to the completion code, language stamped`, async () => {
        const english = englishOf(lang);
        const context = await study.browser.newContext(options);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const screens: string[] = [];
        const check = async (name: string) => {
          await page.waitForTimeout(150);
          await page.screenshot({ path: join(SHOTS, `${lang}-${device}-${String(screens.length + 1).padStart(2, '0')}-${name}.png`), fullPage: true });
          screens.push(name);
          expect(await englishOnScreen(page, english), `English on the ${name} screen`).toEqual([]);
          expect(await layoutProblems(page), `text cut off or drawn over other text on the ${name} screen`).toEqual([]);
        };
        const driver = new Driver(page, device === 'phone' ? 'touch' : 'mouse');
        const played: Played = { moves: [] };

        await page.goto(`${study.server.url}?lang=${lang}`);
        await page.getByTestId('consent-agree').waitFor();
        expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, lang === 'ar' ? 'rtl' : 'ltr']);
        await check('consent');
        await driver.press('consent-agree');

        await waitForStep(page, 'tutorial');
        await page.getByTestId('grid').waitFor();
        await check('tutorial');
        // The board keeps its reading order: row clues at the left of the grid, column 0 the leftmost, in either direction.
        const [clueBox, cell0, cell1] = await Promise.all(['row-clue-0', 'cell-0-0', 'cell-0-1'].map((id) => page.getByTestId(id).boundingBox()));
        expect(clueBox!.x).toBeLessThan(cell0!.x);
        expect(cell0!.x).toBeLessThan(cell1!.x);
        if (lang === 'ar') {
          // ...while the page mirrors: the side panel (Submit) sits left of the board on a desktop.
          const [submit, grid] = await Promise.all([page.getByTestId('submit').boundingBox(), page.getByTestId('grid').boundingBox()]);
          if (device === 'desktop') expect(submit!.x + submit!.width).toBeLessThan(grid!.x);
        }
        await doTutorial(driver, study.solutionOf('tutorial'), played);

        await waitForStep(page, 'warmup');
        await check('warmup');
        await waitForStep(page, 'survey');
        await driver.press('survey-submit'); // nothing answered: each required item says so
        await page.locator('.error.summary').waitFor();
        await check('survey-errors');
        await answerSurvey(page, { nonogram_skill: '6', puzzle_skill: '8', nonogram_frequency: 'Sometimes', logic_frequency: 'Often', nonogram_sizes: ['10x10'] }, device === 'phone' ? 'touch' : 'mouse');

        const state = await page.evaluate(async () => (await (await fetch('/api/session')).json()) as { session_id: string; sequence: string[] });
        for (let position = 1; position <= 3; position++) {
          await waitForStep(page, 'puzzle');
          await page.getByTestId('grid').waitFor();
          if (position === 2) {
            await driver.press('skip');
            await page.getByTestId('confirm-yes').waitFor();
            await check('skip-dialog');
            await driver.press('confirm-yes');
            await waitForStep(page, 'rating');
            await check('rating-skipped');
            await answerSurvey(page, { difficulty: 'N/A', guessing: 'Sometimes' }, device === 'phone' ? 'touch' : 'mouse');
            continue;
          }
          const solution = study.solutionOf(state.sequence[position - 1]);
          if (position === 1) {
            await page.getByTestId(`cell-0-${solution[0].indexOf('.')}`).click();
            await driver.press('submit');
            await page.getByTestId('feedback').waitFor();
            await check('puzzle-not-solved');
            // A hint on the wrong mark: its heading and its reason in the page's language (the fix is offered, not applied).
            await driver.press('hint');
            await page.getByTestId('hint-fix').waitFor();
            await check('hint-mistake');
            expect(await page.getByTestId('hint-panel').locator('strong').textContent()).toMatch(lang === 'de' ? /^Tipp · Fehler in Zeile 1, Spalte \d+/ : /^تلميح · خطأ في الصف 1، العمود \d+/);
            await driver.press('hint-close');
            await driver.press('undo');
          }
          await solveBoard(page, solution, played, driver);
          await driver.press('submit');
          await waitForStep(page, 'rating');
          await check('rating');
          await answerSurvey(page, { difficulty: '3', guessing: 'Rarely' }, device === 'phone' ? 'touch' : 'mouse');
        }
        await waitForStep(page, 'post_survey');
        await check('post-survey');
        const why: Record<string, string> = {};
        for (const id of state.sequence) why[`why_${id}`] = 'Lange Blöcke';
        await answerSurvey(page, { ...why, strategies: 'Überlappungen', guessing_overall: 'Rarely' }, device === 'phone' ? 'touch' : 'mouse');
        await waitForStep(page, 'complete');
        await expect.poll(() => page.getByTestId('completion-code').textContent(), { timeout: 20_000 }).toBe(study.config.completion.code);
        await check('complete');
        expect(screens.length).toBeGreaterThanOrEqual(10);
        expect(errors).toEqual([]);

        // The language is stamped on the session's start; the answers are the study's own options, in English.
        const log = await study.readLog(state.session_id);
        expect(log[0].type).toBe('session_start');
        expect(log[0].payload.lang).toBe(lang);
        const survey = log.find((e) => e.type === 'survey_submit' && e.payload.survey_id === 'pre_survey');
        expect(survey?.payload.answers.nonogram_frequency).toBe('Sometimes (about monthly)');
        const ratings = log.filter((e) => e.type === 'rating').map((e) => e.payload.guessing);
        expect(ratings).toEqual(['Rarely', 'Sometimes', 'Rarely']);
        await context.close();
      });
    });
  }
}
