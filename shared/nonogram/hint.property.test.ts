// Property test of the hint engine (issue 32): every explanation is true of the board it was given for.
//
// Over random generated puzzles (5x5 to 15x15, `puzzleFromSeed`), random progress states (random correct marks, the
// states a participant reaches by following hints, line-propagation and probing fixpoints) and random mistakes (a
// filled cell that should be empty, a crossed cell that should be filled), the hint's structured claim (`Hint.claim`)
// is checked against the line solver: the cells it says are forced are forced, by the line it names, from what it says
// it uses (the clue alone, the marks near the line's ends, the line's marks, line reasoning over the board), to the
// value it says; a mistake hint names a cell that really is wrong. The sentence itself is checked to say what the
// claim says (the cell, the line, its clue, the value, the numbers it quotes). Every wording the engine has
// (HINT_WORDINGS, one per branch of its text) must be reached at least once.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import type { Rng } from '../random.ts';
import { puzzleFromSeed } from './generate.ts';
import { EMPTY, FILLED, UNKNOWN, cloneGrid, gridFromRows } from './grid.ts';
import type { Clue, Clues, Grid } from './grid.ts';
import { clueSpan, lineSolve } from './lineSolver.ts';
import { probeInPlace, propagateInPlace } from './solver.ts';
import { HINT_WORDINGS, hint } from './hint.ts';
import type { Hint, HintReasoning, HintWording } from './hint.ts';
import type { Puzzle } from '../schema/puzzle.ts';

interface Case {
  clues: Clues;
  solution: Grid;
  board: Grid;
  policy: 'explain-and-reveal' | 'reveal-only';
}

type Axis = 'row' | 'col';

/** The cells of a line of `cells` (row `index` or column `index`). */
function lineCells(cells: ArrayLike<number>, width: number, height: number, axis: Axis, index: number): number[] {
  const out: number[] = [];
  if (axis === 'row') for (let c = 0; c < width; c++) out.push(cells[index * width + c]);
  else for (let r = 0; r < height; r++) out.push(cells[r * width + index]);
  return out;
}

const lineName = (axis: Axis, index: number) => `${axis === 'row' ? 'Row' : 'Column'} ${index + 1}`;
const clueText = (clue: Clue) => (clue.length === 0 ? '0' : clue.join(' '));

/** The marks near a line's ends, as STUDY.md's edge strategy reads them: leading crosses, then the first run's reach plus one (and mirrored). */
function nearTheEnds(clue: Clue, line: number[]): number[] {
  const n = line.length;
  const out = new Array<number>(n).fill(UNKNOWN);
  if (clue.length === 0) return out;
  let i = 0;
  while (i < n && line[i] === EMPTY) out[i] = line[i++];
  for (const end = Math.min(n, i + clue[0] + 1); i < end; i++) out[i] = line[i];
  let j = n - 1;
  while (j >= 0 && line[j] === EMPTY) out[j] = line[j--];
  for (const end = Math.max(-1, j - clue[clue.length - 1] - 1); j > end; j--) out[j] = line[j];
  return out;
}

/** Every arrangement of `clue` in a line agreeing with `known`, as the start of each run (brute force, independent of the solver). */
function arrangements(clue: Clue, known: number[]): number[][] {
  const n = known.length;
  const out: number[][] = [];
  const starts: number[] = [];
  const place = (j: number, from: number) => {
    if (j === clue.length) {
      // Everything after the last run is empty.
      for (let i = from; i < n; i++) if (known[i] === FILLED) return;
      out.push(starts.slice());
      return;
    }
    for (let s = from; s + clue[j] <= n; s++) {
      // Cells skipped before this run are empty.
      if (s > from && known[s - 1] === FILLED) break;
      let ok = true;
      for (let i = s; i < s + clue[j]; i++) if (known[i] === EMPTY) ok = false;
      if (s + clue[j] < n && known[s + clue[j]] === FILLED) ok = false;
      if (!ok) continue;
      starts.push(s);
      place(j + 1, s + clue[j] + 1);
      starts.pop();
    }
  };
  place(0, 0);
  return out;
}

/**
 * The edge claim: "the marks near the end anchor the run next to that edge, and that run covers (or stops short of)
 * the cell". True when, for one edge, in every arrangement agreeing with the marks near the ends, the run next to that
 * edge covers the cell (filled), or the cell lies between that edge and the next run without the edge run covering
 * it (empty).
 */
function edgeRunExplains(clue: Clue, known: number[], pos: number, value: number): boolean {
  const all = arrangements(clue, known);
  if (all.length === 0 || clue.length === 0) return false;
  const k = clue.length;
  const covers = (a: number[], j: number) => a[j] <= pos && pos < a[j] + clue[j];
  if (value === FILLED) return all.every((a) => covers(a, 0)) || all.every((a) => covers(a, k - 1));
  const left = all.every((a) => !covers(a, 0) && (k === 1 || pos < a[1]));
  const right = all.every((a) => !covers(a, k - 1) && (k === 1 || pos >= a[k - 2] + clue[k - 2]));
  return left || right;
}

/** Line propagation in the engine's reading order (rows, then columns, until nothing moves): the first line whose clue stops fitting, or null. */
function firstBrokenLine(clues: Clues, cells: Uint8Array, width: number, height: number): { axis: Axis; index: number } | null {
  const lines: { axis: Axis; index: number; clue: Clue }[] = [
    ...clues.rows.map((clue, index) => ({ axis: 'row' as const, index, clue })),
    ...clues.cols.map((clue, index) => ({ axis: 'col' as const, index, clue })),
  ];
  for (let changed = true; changed; ) {
    changed = false;
    for (const l of lines) {
      const solved = lineSolve(l.clue, lineCells(cells, width, height, l.axis, l.index));
      if (solved === 'contradiction') return { axis: l.axis, index: l.index };
      solved.forEach((v, i) => {
        const p = l.axis === 'row' ? l.index * width + i : i * width + l.index;
        if (cells[p] === UNKNOWN && v !== UNKNOWN) {
          cells[p] = v;
          changed = true;
        }
      });
    }
  }
  return null;
}

/** Check one hint against the line solver. Throws (expect) on a false claim. */
function checkHint(c: Case, h: Hint, context: string): void {
  const { clues, solution, board, policy } = c;
  const { width, height } = board;
  const at = h.row * width + h.col;
  const truth = solution.cells[at];
  const value = truth === FILLED ? 'filled' : 'empty';
  const claim = h.claim;
  const msg = `${context}\n${h.explanation}\n${JSON.stringify(claim)}`;
  expect(h.value, msg).toBe(value);
  expect(claim.value, msg).toBe(value);
  expect(claim.cells, msg).toContainEqual({ row: h.row, col: h.col });
  expect(h.explanation, msg).toContain(`row ${h.row + 1}, column ${h.col + 1}`);

  // Which cell: a mistake hint names the first wrong mark in reading order; a cell hint an untouched cell of a correct board.
  const firstWrong = board.cells.findIndex((v, i) => v !== UNKNOWN && v !== solution.cells[i]);
  if (h.kind === 'error') {
    expect(firstWrong, msg).toBe(at);
    expect(board.cells[at], msg).not.toBe(UNKNOWN);
    expect(board.cells[at], msg).not.toBe(truth);
    expect(claim.wording.startsWith('mistake-'), msg).toBe(true);
    if (policy === 'explain-and-reveal') expect(h.explanation.endsWith(truth === FILLED ? ' It should be filled.' : ' It should be empty: cross it.'), msg).toBe(true);
  } else {
    expect(firstWrong, msg).toBe(-1);
    expect(board.cells[at], msg).toBe(UNKNOWN);
    expect(claim.wording.startsWith('mistake-'), msg).toBe(false);
  }

  // The line the text reasons in: named with its clue, the one the heading shows, and (except a mistake's probing) through the cell.
  let clue: Clue = [];
  let pos = -1;
  let line: number[] = [];
  let trustedLine: number[] = [];
  const trusted = board.cells.map((v, i) => (v !== UNKNOWN && v !== solution.cells[i] ? UNKNOWN : v));
  if (claim.line) {
    const { axis, index } = claim.line;
    expect(h.line, msg).toEqual(claim.line);
    expect(h.explanation, msg).toContain(lineName(axis, index));
    clue = axis === 'row' ? clues.rows[index] : clues.cols[index];
    expect(h.explanation, msg).toContain(`clue ${clueText(clue)}`);
    line = lineCells(board.cells, width, height, axis, index);
    trustedLine = lineCells(trusted, width, height, axis, index);
    if (claim.wording !== 'mistake-probing') {
      expect(axis === 'row' ? index === h.row : index === h.col, msg).toBe(true);
      pos = axis === 'row' ? h.col : h.row;
    }
    if (claim.wording !== 'mistake-probing') for (const cell of claim.cells) expect(axis === 'row' ? cell.row === index : cell.col === index, msg).toBe(true);
  }
  // Only these reason without one line (the heading still shows the cell's row).
  const lineless: HintWording[] = ['probing', 'reveal', 'reveal-only', 'mistake-solution', 'mistake-reveal-only'];
  expect(claim.line === null, msg).toBe(lineless.includes(claim.wording));
  const blank = new Array<number>(line.length).fill(UNKNOWN);
  const mark = board.cells[at];
  const solved = (known: number[]) => {
    const s = lineSolve(clue, known);
    expect(s, msg).not.toBe('contradiction');
    return s as number[];
  };
  /** The cells the claim names, by their position in the claimed line. */
  const claimedPositions = () => claim.cells.map((cell) => (claim.line!.axis === 'row' ? cell.col : cell.row));
  const forcedBy = (known: number[]) => {
    const s = solved(known);
    for (const p of claimedPositions()) expect(s[p], msg).toBe(truth);
  };
  const withMark = trustedLine.slice();
  if (pos >= 0) withMark[pos] = mark;

  switch (claim.wording) {
    case 'foothold-empty':
      expect(clue, msg).toEqual([]);
      expect(claim.cells.length, msg).toBe(line.length);
      expect(solved(blank).every((v) => v === EMPTY), msg).toBe(true);
      break;
    case 'foothold-exact':
      expect(clue.length, msg).toBeGreaterThan(0);
      expect(clueSpan(clue), msg).toBe(line.length);
      expect(h.explanation, msg).toContain(`needs exactly ${line.length} cells, the whole line`);
      expect(solved(blank).includes(UNKNOWN), msg).toBe(false);
      forcedBy(blank);
      break;
    case 'overlap':
      forcedBy(blank);
      break;
    case 'edge': {
      const near = nearTheEnds(clue, line);
      expect(solved(blank)[pos], msg).toBe(UNKNOWN); // the marks, not the clue alone
      forcedBy(near);
      expect(edgeRunExplains(clue, near, pos, truth), msg).toBe(true);
      break;
    }
    case 'edge-runs': {
      const near = nearTheEnds(clue, line);
      expect(solved(blank)[pos], msg).toBe(UNKNOWN);
      forcedBy(near);
      break;
    }
    case 'cross-reference':
    case 'cross-reference-one': {
      forcedBy(line);
      expect(solved(nearTheEnds(clue, line))[pos], msg).toBe(UNKNOWN); // more than the marks near the ends
      const at = line.flatMap((v, i) => (v === UNKNOWN ? [] : [i]));
      if (claim.wording === 'cross-reference') expect(at.length, msg).toBeGreaterThan(1); // "several"
      else {
        expect(at.length, msg).toBe(1);
        const [r, c] = claim.line!.axis === 'row' ? [claim.line!.index, at[0]] : [at[0], claim.line!.index];
        expect(h.explanation, msg).toContain(`the one cell already marked in it (row ${r + 1}, column ${c + 1})`);
      }
      break;
    }
    case 'probing': {
      expect(h.explanation, msg).toContain(`were ${value === 'filled' ? 'empty' : 'filled'}`);
      const test = cloneGrid(board);
      test.cells[at] = truth === FILLED ? EMPTY : FILLED;
      expect(propagateInPlace(clues, test, 'complete'), msg).toBe(false);
      break;
    }
    case 'reveal': {
      // No line gives a new cell, and neither value of any open cell propagates to a contradiction.
      for (const [axis, n] of [['row', height], ['col', width]] as const)
        for (let index = 0; index < n; index++) {
          const l = lineCells(board.cells, width, height, axis, index);
          const s = lineSolve(axis === 'row' ? clues.rows[index] : clues.cols[index], l);
          expect(s, msg).not.toBe('contradiction');
          expect((s as number[]).every((v, i) => v === l[i]), `${msg}\n${lineName(axis, index)} gives a cell`).toBe(true);
        }
      for (let i = 0; i < board.cells.length; i++) {
        if (board.cells[i] !== UNKNOWN) continue;
        for (const v of [FILLED, EMPTY]) {
          const test = cloneGrid(board);
          test.cells[i] = v;
          expect(propagateInPlace(clues, test, 'complete'), `${msg}\ncell ${i} probes`).toBe(true);
        }
      }
      break;
    }
    case 'reveal-only':
      expect(policy, msg).toBe('reveal-only');
      expect(h.explanation, msg).toBe(`The cell at row ${h.row + 1}, column ${h.col + 1} is ${value === 'filled' ? 'filled' : 'empty (cross it)'}.`);
      break;
    case 'mistake-reveal-only':
      expect(policy, msg).toBe('reveal-only');
      expect(h.explanation, msg).toBe(`The cell at row ${h.row + 1}, column ${h.col + 1} is marked ${mark === FILLED ? 'filled' : 'empty'}, but it should be ${value === 'filled' ? 'filled' : 'empty (cross it)'}.`);
      break;
    case 'mistake-count': {
      expect(mark, msg).toBe(FILLED);
      const total = clue.reduce((a, b) => a + b, 0);
      const others = trustedLine.filter((v) => v === FILLED).length;
      expect(others, msg).toBeGreaterThanOrEqual(total);
      expect(h.explanation, msg).toContain(`has ${total} filled cell${total === 1 ? '' : 's'} in all, and ${others} other cell`);
      expect(lineSolve(clue, withMark), msg).toBe('contradiction');
      break;
    }
    case 'mistake-run': {
      expect(mark, msg).toBe(FILLED);
      let a = pos;
      let b = pos;
      while (a > 0 && withMark[a - 1] === FILLED) a--;
      while (b < withMark.length - 1 && withMark[b + 1] === FILLED) b++;
      expect(b - a + 1, msg).toBeGreaterThan(Math.max(...clue));
      expect(h.explanation, msg).toContain(`a run of ${b - a + 1} filled cells`);
      expect(lineSolve(clue, withMark), msg).toBe('contradiction');
      break;
    }
    case 'mistake-foothold-empty':
      expect(clue, msg).toEqual([]);
      expect(mark, msg).toBe(FILLED);
      expect(claim.cells.length, msg).toBe(line.length);
      forcedBy(blank);
      break;
    case 'mistake-foothold-full':
      expect(clue, msg).toEqual([line.length]);
      expect(mark, msg).toBe(EMPTY);
      expect(claim.cells.length, msg).toBe(line.length);
      forcedBy(blank);
      break;
    case 'mistake-foothold-exact':
      expect(clue.length, msg).toBeGreaterThan(1);
      expect(clueSpan(clue), msg).toBe(line.length);
      expect(h.explanation, msg).not.toContain('every cell in it is filled');
      expect(solved(blank).includes(UNKNOWN), msg).toBe(false);
      forcedBy(blank);
      break;
    case 'mistake-overlap-covered':
      expect(truth, msg).toBe(FILLED);
      forcedBy(blank);
      break;
    case 'mistake-edge-covers':
    case 'mistake-edge-short': {
      expect(truth, msg).toBe(claim.wording === 'mistake-edge-covers' ? FILLED : EMPTY);
      const near = nearTheEnds(clue, trustedLine);
      expect(solved(blank)[pos], msg).toBe(UNKNOWN);
      forcedBy(near);
      expect(edgeRunExplains(clue, near, pos, truth), msg).toBe(true);
      break;
    }
    case 'mistake-edge-runs': {
      const near = nearTheEnds(clue, trustedLine);
      expect(solved(blank)[pos], msg).toBe(UNKNOWN);
      forcedBy(near);
      break;
    }
    case 'mistake-cross-reference':
    case 'mistake-cross-reference-one': {
      forcedBy(trustedLine);
      expect(solved(nearTheEnds(clue, trustedLine))[pos], msg).toBe(UNKNOWN);
      expect(lineSolve(clue, withMark), msg).toBe('contradiction');
      const at = trustedLine.flatMap((v, i) => (v === UNKNOWN ? [] : [i]));
      if (claim.wording === 'mistake-cross-reference') expect(at.length, msg).toBeGreaterThan(1); // "the cells rightly marked"
      else {
        expect(at.length, msg).toBe(1);
        const [r, c] = claim.line!.axis === 'row' ? [claim.line!.index, at[0]] : [at[0], claim.line!.index];
        expect(h.explanation, msg).toContain(`with the one cell rightly marked in it already (row ${r + 1}, column ${c + 1})`);
      }
      break;
    }
    case 'mistake-probing': {
      const test = trusted.slice();
      test[at] = mark;
      const g = { width, height, cells: test.slice() };
      expect(propagateInPlace(clues, g, 'complete'), msg).toBe(false);
      expect(firstBrokenLine(clues, test, width, height), msg).toEqual(claim.line);
      expect(h.explanation, msg).toContain(`With the cell at row ${h.row + 1}, column ${h.col + 1} ${mark === FILLED ? 'filled' : 'crossed'}`);
      break;
    }
    case 'mistake-solution': {
      // "No line's clue shows it yet": neither line through the cell forces it from the trusted marks, and line reasoning from the mark finds no contradiction.
      for (const [axis, index] of [['row', h.row], ['col', h.col]] as const) {
        const l = lineCells(trusted, width, height, axis, index);
        const s = lineSolve(axis === 'row' ? clues.rows[index] : clues.cols[index], l);
        expect((s as number[])[axis === 'row' ? h.col : h.row], msg).toBe(UNKNOWN);
      }
      const g = { width, height, cells: trusted.slice() };
      g.cells[at] = mark;
      expect(propagateInPlace(clues, g, 'complete'), msg).toBe(true);
      break;
    }
  }
  // The basis the claim states is the one its wording uses.
  const basis: Record<HintWording, string> = {
    'foothold-empty': 'clue', 'foothold-exact': 'clue', overlap: 'clue', edge: 'edge', 'edge-runs': 'edge', 'cross-reference': 'line', 'cross-reference-one': 'line', probing: 'board', reveal: 'solution', 'reveal-only': 'solution',
    'mistake-count': 'line', 'mistake-run': 'line', 'mistake-foothold-empty': 'clue', 'mistake-foothold-full': 'clue', 'mistake-foothold-exact': 'clue',
    'mistake-overlap-covered': 'clue', 'mistake-edge-covers': 'edge', 'mistake-edge-short': 'edge', 'mistake-edge-runs': 'edge',
    'mistake-cross-reference': 'line', 'mistake-cross-reference-one': 'line', 'mistake-probing': 'board', 'mistake-solution': 'solution', 'mistake-reveal-only': 'solution',
  };
  expect(claim.basis, msg).toBe(basis[claim.wording]);
}

/** A random uniquely solvable puzzle from the generator: size 5..15 each way. */
function randomPuzzle(rng: Rng): Puzzle {
  for (;;) {
    const width = 5 + rng.int(11);
    const height = 5 + rng.int(11);
    const density = 0.42 + rng.next() ** 2 * 0.23; // the sparser boards are the ones line reasoning alone does not solve
    const p = puzzleFromSeed(width, height, density, rng.int(2 ** 31));
    if (p) return p;
  }
}

/** A random progress state of a puzzle: only correct marks (mistakes come after). `only` picks the kind of state. */
function progress(rng: Rng, clues: Clues, solution: Grid, only?: number): Grid {
  const board = cloneGrid(solution);
  board.cells.fill(UNKNOWN);
  const reveal = (p: number) => {
    for (let i = 0; i < board.cells.length; i++) if (rng.next() < p) board.cells[i] = solution.cells[i];
  };
  const mode = only ?? rng.int(5);
  if (mode === 0) reveal(rng.next() ** 2);
  else if (mode === 1) {
    // Following hints from a blank board, some steps.
    const steps = rng.int(board.cells.length);
    for (let s = 0; s < steps; s++) {
      const h = hint(clues, board, solution);
      if (!h) break;
      board.cells[h.row * board.width + h.col] = h.value === 'filled' ? FILLED : EMPTY;
    }
  } else if (mode === 2) {
    // Stuck under line reasoning (a hard puzzle leaves probing to do).
    if (rng.next() < 0.5) reveal(rng.next() * 0.1);
    propagateInPlace(clues, board, 'complete');
  } else if (mode === 4) {
    // Everything known but one loose line near the middle (the most room for its runs), of which one filled cell is left.
    board.cells.set(solution.cells);
    const { width, height } = board;
    const axis: Axis = rng.next() < 0.5 ? 'row' : 'col';
    const n = axis === 'row' ? height : width;
    const len = axis === 'row' ? width : height;
    const middle = Array.from({ length: Math.ceil(n / 2) }, (_, i) => Math.floor(n / 4) + i).filter((i) => i < n);
    const slack = (i: number) => len - clueSpan(axis === 'row' ? clues.rows[i] : clues.cols[i]);
    const loosest = Math.max(...middle.map(slack));
    const choices = middle.filter((i) => slack(i) === loosest);
    const index = choices[rng.int(choices.length)];
    const line = lineCells(solution.cells, width, height, axis, index);
    const filled = line.flatMap((v, i) => (v === FILLED ? [i] : []));
    const keep = filled.length > 0 ? filled[rng.int(filled.length)] : rng.int(len);
    for (let i = 0; i < len; i++) if (i !== keep) board.cells[axis === 'row' ? index * width + i : i * width + index] = UNKNOWN;
    return board;
  } else {
    // Stuck under probing too (only a puzzle that needs search leaves anything).
    if (rng.next() < 0.5) reveal(rng.next() * 0.05);
    probeInPlace(clues, board);
  }
  if (mode >= 2 && rng.next() < 0.6) {
    // ...and the participant has just placed the cell a probing or reveal hint gave: one new mark, often a filled
    // cell in a line that had none.
    const { width, height } = board;
    const bare = (i: number) =>
      lineCells(board.cells, width, height, 'row', Math.floor(i / width)).every((v) => v === UNKNOWN) || lineCells(board.cells, width, height, 'col', i % width).every((v) => v === UNKNOWN);
    let open = Array.from(board.cells).flatMap((v, i) => (v === UNKNOWN ? [i] : []));
    const fresh = open.filter((i) => solution.cells[i] === FILLED && bare(i));
    if (fresh.length > 0 && rng.next() < 0.7) open = fresh;
    if (open.length > 0) {
      const i = open[rng.int(open.length)];
      board.cells[i] = solution.cells[i];
    }
  }
  return board;
}

/**
 * Random mistakes: fill a cell that should be empty, or cross one that should be filled. The cell is anywhere, or
 * (as a participant misreading a line) one that a random line's clue and marks force.
 */
function mistakes(rng: Rng, clues: Clues, board: Grid, solution: Grid): void {
  const { width, height } = board;
  const n = [0, 0, 1, 1, 1, 2, 3][rng.int(7)];
  for (let m = 0; m < n; m++) {
    let i = rng.int(board.cells.length);
    if (rng.next() < 0.5) {
      const axis: Axis = rng.next() < 0.5 ? 'row' : 'col';
      const index = rng.int(axis === 'row' ? height : width);
      const l = lineCells(board.cells, width, height, axis, index);
      const s = lineSolve(axis === 'row' ? clues.rows[index] : clues.cols[index], l);
      const forced = s === 'contradiction' ? [] : s.flatMap((v, p) => (v !== UNKNOWN && l[p] === UNKNOWN ? [p] : []));
      if (forced.length > 0) {
        const p = forced[rng.int(forced.length)];
        i = axis === 'row' ? index * width + p : p * width + index;
      }
    }
    board.cells[i] = solution.cells[i] === FILLED ? EMPTY : FILLED;
  }
}

describe('hint: every explanation is true of its board (property, issue 32)', () => {
  it('over random puzzles, progress states and mistakes, every claim holds by the line solver, and every wording is reached', () => {
    const rng = createRng(32);
    const seen = new Map<HintWording, number>(HINT_WORDINGS.map((w) => [w, 0]));
    const kinds = new Map<HintReasoning, number>();
    // A false claim is collected (the first two per wording) so one run names every false wording at once.
    const failures = new Map<string, string[]>();
    const run = (p: Puzzle, states: number, only?: number, mistaken = 0.7) => {
      const solution = gridFromRows(p.solution as string[]);
      const clues = { rows: p.rows, cols: p.cols };
      for (let s = 0; s < states; s++) {
        const board = progress(rng, clues, solution, only);
        if (rng.next() < mistaken) mistakes(rng, clues, board, solution);
        const policy = rng.next() < 0.1 ? 'reveal-only' : 'explain-and-reveal';
        const h = hint(clues, board, solution, policy);
        if (!h) continue;
        seen.set(h.claim.wording, (seen.get(h.claim.wording) ?? 0) + 1);
        kinds.set(h.reasoning, (kinds.get(h.reasoning) ?? 0) + 1);
        try {
          checkHint({ clues, solution, board, policy }, h, `${p.id} ${p.width}x${p.height} (seed ${p.seed}) board ${Array.from(board.cells).join('')} policy ${policy}`);
        } catch (e) {
          const list = failures.get(h.claim.wording) ?? [];
          if (list.length < 2) list.push((e as Error).message);
          failures.set(h.claim.wording, list);
        }
      }
    };
    for (let t = 0; t < 300; t++) {
      const p = randomPuzzle(rng);
      run(p, 10);
      // A puzzle line reasoning alone does not solve: more states stuck under it, where probing starts.
      if ((p.metrics?.human?.level ?? 1) >= 3) run(p, 15, 2, 0.3);
    }
    // One generated puzzle that needs search (level 4): only on such a board is a cell ever revealed.
    const hard = puzzleFromSeed(15, 15, 0.45, 2255)!;
    expect(hard.metrics?.human?.level).toBe(4);
    run(hard, 150, 3, 0.5);
    expect(Object.fromEntries(failures)).toEqual({});
    const missing = [...seen].filter(([, n]) => n === 0).map(([w]) => w);
    expect(missing, JSON.stringify(Object.fromEntries(seen))).toEqual([]);
    // And so every reasoning kind of the engine.
    const reasonings: HintReasoning[] = ['foothold', 'overlap', 'edge', 'cross-reference', 'probing', 'reveal', 'error'];
    for (const r of reasonings) expect(kinds.get(r) ?? 0, `${r}: ${JSON.stringify(Object.fromEntries(kinds))}`).toBeGreaterThan(0);
  });
});
