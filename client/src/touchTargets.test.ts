// Touch targets of 44 px or more (issue 32): the 1-10 rating options (were 33x44 on a phone), Fill/Cross (40 px tall),
// the hint's Close (52x23); and the completion code's copy button. Read from the stylesheets the page ships and from
// the components' markup (no browser here: the Chromium suite measures the same boxes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { SurveyItemInput, scaleColumns } from './ui/SurveyItems.tsx';
import { HintClose } from './board/PuzzleView.tsx';
import { CompletionCode } from './phases/complete.tsx';
import { loadStepWords } from './i18n.ts';

// The page fetches the steps' English words beside the board's chunk (they are not in its first load).
beforeAll(() => loadStepWords());

/** The declarations for `selector` in a stylesheet: the base rules, then those of `@media (max-width: N)` when `width` <= N. */
function declarations(css: string, selector: string, width: number): Record<string, string> {
  const out: Record<string, string> = {};
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const take = (block: string) => {
    for (const m of block.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      const selectors = m[1].split(',').map((x) => x.trim());
      if (!selectors.includes(selector)) continue;
      for (const d of m[2].split(';')) {
        const i = d.indexOf(':');
        if (i > 0) out[d.slice(0, i).trim()] = d.slice(i + 1).trim();
      }
    }
  };
  // Top level first (media blocks cut out), then each media block that applies, in order.
  const media = [...text.matchAll(/@media\s*\(max-width:\s*(\d+)px\)\s*\{((?:[^{}]*\{[^{}]*\})*[^{}]*)\}/g)];
  take(media.reduce((t, m) => t.replace(m[0], ''), text));
  for (const m of media) if (width <= Number(m[1])) take(m[2]);
  return out;
}
const px = (v: string | undefined) => (v === undefined ? NaN : Number(/^(-?\d+(?:\.\d+)?)px$/.exec(v)?.[1] ?? NaN));

const styles = readFileSync(join(import.meta.dirname, 'styles.css'), 'utf8');
const board = readFileSync(join(import.meta.dirname, 'board', 'board.css'), 'utf8');
const PHONE = 390;

describe('touch targets', () => {
  it('a 1-10 scale on a phone: two rows of five, each option at least 44 px wide and tall', () => {
    const html = renderToStaticMarkup(createElement(SurveyItemInput, { item: { type: 'scale', id: 'effort', label: 'Effort', required: true, min: 1, max: 10 } as never, value: undefined, onChange: () => {} }));
    expect(html).toContain('--scale-cols:5');
    expect(scaleColumns(10)).toBe(5);
    const scale = declarations(styles, '.scale', PHONE);
    expect(scale.display).toBe('grid');
    expect(scale['grid-template-columns']).toBe('repeat(var(--scale-cols, 5), minmax(44px, 1fr))');
    // The page's content width on the phone, less the gaps, over five columns.
    const body = declarations(styles, '.page-body', PHONE).padding.split(/\s+/).map(px);
    const inner = PHONE - 2 * body[1];
    const cols = scaleColumns(10);
    expect((inner - (cols - 1) * px(scale.gap)) / cols).toBeGreaterThanOrEqual(44);
    expect(px(declarations(styles, '.scale-option span', PHONE)['min-height'])).toBeGreaterThanOrEqual(44);
    // Up to six options stay in one row, still 44 px wide on a 320 px screen; seven go on two rows.
    expect(scaleColumns(6)).toBe(6);
    expect((320 - 2 * body[1] - 5 * px(scale.gap)) / 6).toBeGreaterThanOrEqual(44);
    expect(scaleColumns(7)).toBe(4);
  });

  it('Fill and Cross are 44 px tall', () => {
    expect(px(declarations(board, '.tool-switch button', PHONE)['min-height'])).toBeGreaterThanOrEqual(44);
    expect(px(declarations(board, '.tool-switch button', PHONE)['min-width'])).toBeGreaterThanOrEqual(44);
  });

  it("the hint's Close is a 44x44 target (its rule outranks the plain link's min-height: 0)", () => {
    const html = renderToStaticMarkup(createElement(HintClose));
    expect(html).toMatch(/class="link hint-close"/);
    const close = declarations(board, '.hint-head .hint-close', PHONE);
    expect(px(close['min-height'])).toBeGreaterThanOrEqual(44);
    expect(px(close['min-width'])).toBeGreaterThanOrEqual(44);
    expect(declarations(styles, 'button.link', PHONE)['min-height']).toBe('0'); // what it overrides
  });
});

describe('the completion code', () => {
  it('has a copy button next to the code, and a status line for what the copy did', () => {
    const html = renderToStaticMarkup(createElement(CompletionCode, { code: 'C0DE-1234', redirecting: false }));
    expect(html).toContain('data-testid="completion-code">C0DE-1234<');
    expect(html).toMatch(/<button type="button" data-testid="copy-code">Copy the code<\/button>/);
    expect(html).toContain('role="status"');
  });
});
