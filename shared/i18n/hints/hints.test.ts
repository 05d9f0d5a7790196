// The hints' catalogue in every shipped language: the same keys and arguments as English, every message renders with
// nothing left in braces, and real hints (Nonogram and Sudoku, on random boards with and without mistakes) read in
// German and Arabic with no English word left and Western digits for positions.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../random.ts';
import { formatMessage, placeholders } from '../format.ts';
import { HINT_CATALOGUES, HINT_MESSAGE_KEYS, hintWords } from './catalogues.ts';
import { hintsEn } from './en.ts';
import { EMPTY, FILLED, UNKNOWN, cluesOf, gridFromRows } from '../../nonogram/grid.ts';
import { HINT_WORDINGS, hint, hintExplanation, hintHeading } from '../../nonogram/hint.ts';
import { puzzleFromSeed } from '../../nonogram/generate.ts';
import { sudokuHint, sudokuHintExplanation, sudokuHintHeading } from '../../sudoku/hint.ts';
import { randomPuzzle } from '../../sudoku/referenceSolver.ts';
import { shapeOf } from '../../sudoku/grid.ts';
import type { CellDigit } from '../../sudoku/techniques.ts';

/** Arguments that only choose a grammatical form: a language may not need them. */
const GRAMMAR = new Set(['count', 'value', 'valuetext', 'valueText', 'marked', 'marks', 'kind', 'axis']);
/** Words that are English and neither German nor Arabic (nor the technique's name, XY-Wing). */
const ENGLISH = /\b(the|cell|cells|row|rows|column|columns|clue|filled|empty|cross|crossed|which|every|runs?|digits?|box|boxes|hint|mistake|cannot|should|would|only|from|remove|solution|puzzle|arrangement|with|left|there|and|of|is|are|it|at|both|no|not)\b/i;

/** A value for every argument of a message: numbers for positions and counts, a select's first case. */
function sampleArgs(message: string): Record<string, string | number> {
  const args: Record<string, string | number> = {};
  for (const name of placeholders(message)) args[name] = /^(value|marked)$/.test(name) ? 'filled' : name === 'marks' ? 'yes' : name === 'kind' ? 'box' : name === 'axis' ? 'row' : 3;
  return args;
}

describe('the hint catalogue', () => {
  it('its keys (hints/keys.ts, what the config check knows) are exactly the English catalogue\'s', () => {
    expect(Object.keys(hintsEn).sort()).toEqual([...HINT_MESSAGE_KEYS].sort());
  });

  it('has a message for every Nonogram wording', () => {
    for (const w of HINT_WORDINGS) expect(hintsEn, w).toHaveProperty(`hint.nonogram.${w}`);
  });

  for (const [lang, messages] of Object.entries(HINT_CATALOGUES)) {
    it(`${lang}: every key of English, the same arguments, each message parses and renders with nothing left in braces`, () => {
      expect(Object.keys(messages).sort()).toEqual([...HINT_MESSAGE_KEYS].sort());
      const locale = hintWords(lang).locale;
      for (const key of HINT_MESSAGE_KEYS) {
        const own = placeholders(messages[key]);
        const english = placeholders(hintsEn[key]);
        const lower = (xs: string[]) => new Set(xs.map((x) => x.toLowerCase()));
        for (const p of own) if (!GRAMMAR.has(p)) expect(english, `${lang} ${key}: unknown {${p}}`).toContain(p);
        for (const p of lower(english)) if (!GRAMMAR.has(p)) expect([...lower(own)], `${lang} ${key}: {${p}} missing`).toContain(p);
        for (const variant of [{} as Record<string, string | number>, { value: 'empty', marked: 'crossed', marks: 'no', kind: 'row', axis: 'col', count: 1 }, { count: 2 }, { count: 11 }]) {
          const text = formatMessage(messages[key], { ...sampleArgs(hintsEn[key]), ...sampleArgs(messages[key]), ...variant }, locale);
          expect(text, `${lang} ${key}`).not.toMatch(/[{}]/);
          if (lang !== 'en') expect(text, `${lang} ${key}`).not.toMatch(ENGLISH);
        }
      }
    });
  }

  it('German and Arabic plurals of counts, and Western digits in Arabic', () => {
    const de = hintWords('de');
    const ar = hintWords('ar');
    expect(formatMessage(de.messages['hint.nonogram.mistake-count'], { line: 'Zeile 2', clue: '1 1', total: 2, others: 1, cell: 'Zeile 2, Spalte 4' }, de.locale)).toBe(
      'Der Hinweis 1 1 von Zeile 2 hat insgesamt 2 gefüllte Felder, und 1 anderes Feld ist darin schon richtig gefüllt – das Feld in Zeile 2, Spalte 4 kann also nicht auch noch gefüllt sein.',
    );
    const twelve = formatMessage(ar.messages['hint.nonogram.foothold-exact'], { line: 'الصف 12', clue: '3 8', span: 12, cell: 'الصف 12، العمود 1', valueText: 'مظللة' }, ar.locale);
    expect(twelve).toContain('12 خانةً');
    expect(twelve).not.toMatch(/[٠-٩]/);
  });
});

describe('hints in German and Arabic', () => {
  it('Nonogram: every hint on random boards, with and without mistakes, has no English word left and names positions in Western digits', () => {
    const rng = createRng(38);
    const seen = new Set<string>();
    for (let t = 0; t < 60; t++) {
      const p = puzzleFromSeed(5 + rng.int(8), 5 + rng.int(8), 0.45 + rng.next() * 0.2, rng.int(2 ** 31));
      if (!p) continue;
      const solution = gridFromRows(p.solution as string[]);
      const clues = cluesOf(solution);
      for (let s = 0; s < 8; s++) {
        const board = { ...solution, cells: solution.cells.map((v) => (rng.next() < rng.next() ? v : UNKNOWN)) };
        for (let m = rng.int(3); m > 0; m--) {
          const i = rng.int(board.cells.length);
          board.cells[i] = solution.cells[i] === FILLED ? EMPTY : FILLED;
        }
        const h = hint(clues, board, solution, rng.next() < 0.1 ? 'reveal-only' : 'explain-and-reveal');
        if (!h) continue;
        seen.add(h.claim.wording);
        expect(hintExplanation(h)).toBe(h.explanation);
        for (const lang of ['de', 'ar']) {
          const words = hintWords(lang);
          const text = `${hintHeading(h, words)} ${hintExplanation(h, words)}`;
          expect(text, `${lang} ${h.claim.wording}: ${text}`).not.toMatch(/[{}]/);
          expect(text, `${lang} ${h.claim.wording}: ${text}`).not.toMatch(ENGLISH);
          expect(text).toContain(String(h.row + 1));
          // The page logs the explanation in its hint_shown event (at most 2,000 characters: shared/schema/event.ts).
          expect(hintExplanation(h, words).length).toBeLessThan(2_000);
          expect(text).not.toMatch(/[٠-٩]/);
        }
      }
    }
    expect(seen.size).toBeGreaterThan(10);
  });

  it('Sudoku: following the hints (and mistakes on the way), every hint in German and Arabic has no English word left', () => {
    const rng = createRng(3838);
    const seen = new Set<string>();
    const shapes = [shapeOf(3, 3), shapeOf(2, 3), shapeOf(2, 2), shapeOf(3, 3)];
    for (let k = 0; k < 16; k++) {
      const { puzzle, solution } = randomPuzzle(shapes[k % shapes.length], rng);
      let g = puzzle;
      const marks: CellDigit[] = [];
      for (let steps = 0; steps < 400; steps++) {
        // Now and then a wrong digit in an empty cell (with and without the solution known).
        const wrong = { ...g, cells: g.cells.slice() };
        const empty = [...g.cells.keys()].filter((i) => g.cells[i] === 0);
        if (empty.length && rng.next() < 0.2) {
          const i = empty[rng.int(empty.length)];
          wrong.cells[i] = (solution.cells[i] % g.size) + 1;
        }
        const known = rng.next() < 0.8;
        const h = sudokuHint(wrong, known ? solution : null, { eliminated: marks, policy: rng.next() < 0.05 ? 'reveal-only' : 'explain-and-reveal' });
        const plain = sudokuHint(g, solution, { eliminated: marks });
        for (const x of [h, plain]) {
          if (!x) continue;
          seen.add(x.reasoning);
          expect(sudokuHintExplanation(x)).toBe(x.explanation);
          expect(sudokuHintHeading(x)).toBe(x.heading);
          for (const lang of ['de', 'ar']) {
            const words = hintWords(lang);
            const text = `${sudokuHintHeading(x, words)} ${sudokuHintExplanation(x, words)}`;
            expect(text, `${lang} ${x.reasoning}: ${text}`).not.toMatch(/[{}]/);
            expect(text, `${lang} ${x.reasoning}: ${text}`).not.toMatch(ENGLISH);
            expect(sudokuHintExplanation(x, words).length).toBeLessThan(2_000);
          }
        }
        if (!plain) break;
        if (plain.placed) g = { ...g, cells: g.cells.map((v, i) => (i === plain.placed!.r * g.size + plain.placed!.c ? plain.placed!.digit : v)) };
        else marks.push(...plain.eliminated);
      }
    }
    for (const r of ['naked-single', 'hidden-single', 'pointing', 'conflict', 'contradiction']) expect([...seen], r).toContain(r);
  });

  it('a study overrides a hint sentence like any catalogue string', () => {
    const solution = gridFromRows(['#.##.', '.#..#', '##.#.', '..###', '#.#.#']);
    const board = gridFromRows(['?????', '?????', '?????', '?????', '?????']);
    const h = hint(cluesOf(solution), board, solution)!;
    const words = hintWords('de', { [`hint.nonogram.${h.claim.wording}`]: 'Schauen Sie auf {line}.', 'app.loading': 'not a hint key' });
    expect(hintExplanation(h, words)).toMatch(/^Schauen Sie auf (Zeile|Spalte) \d\.$/);
    expect(words.messages['app.loading' as never]).toBeUndefined();
  });
});

describe('the heading', () => {
  it('names the wrong cell of every mistake, then the line its reason uses', () => {
    const solution = gridFromRows(['#.##.', '.#..#', '##.#.', '..###', '#.#.#']);
    const clues = cluesOf(solution);
    for (let i = 0; i < solution.cells.length; i++) {
      const board = gridFromRows(['?????', '?????', '?????', '?????', '?????']);
      board.cells[i] = solution.cells[i] === FILLED ? EMPTY : FILLED;
      const h = hint(clues, board, solution)!;
      expect(hintHeading(h)).toMatch(new RegExp(`^Hint · Mistake at row ${h.row + 1}, column ${h.col + 1}( · reason in (Row|Column) \\d)?$`));
      expect(hintHeading(h, hintWords('de'))).toMatch(new RegExp(`^Tipp · Fehler in Zeile ${h.row + 1}, Spalte ${h.col + 1}( · Grund in (Zeile|Spalte) \\d)?$`));
    }
  });

  it('a mistake whose reason is in no line names no reason line', () => {
    const p = puzzleFromSeed(15, 15, 0.45, 2255)!;
    const solution = gridFromRows(p.solution as string[]);
    const board = { width: 15, height: 15, cells: new Uint8Array(225) };
    board.cells[13 * 15 + 11] = EMPTY;
    const h = hint({ rows: p.rows, cols: p.cols }, board, solution)!;
    expect(h.claim.wording).toBe('mistake-solution');
    expect(hintHeading(h)).toBe('Hint · Mistake at row 14, column 12');
    expect(hintHeading(hint({ rows: p.rows, cols: p.cols }, board, solution, 'reveal-only')!)).toBe('Hint · Mistake at row 14, column 12');
    expect(hintHeading(h, hintWords('ar'))).toBe('تلميح · خطأ في الصف 14، العمود 12');
    board.cells[13 * 15 + 11] = UNKNOWN;
    const cell = hint({ rows: p.rows, cols: p.cols }, board, solution)!;
    expect(hintHeading(cell)).toBe(`Hint · ${cell.line.axis === 'row' ? 'Row' : 'Column'} ${cell.line.index + 1}`);
  });
});
