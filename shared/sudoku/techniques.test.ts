// The human technique ladder: known boards, every box shape, and every step's claim checked against a reference.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import type { Rng } from '../random.ts';
import { shapeOf } from './grid.ts';
import type { Grid, Shape } from './grid.ts';
import { bit } from './candidates.ts';
import { TECHNIQUES, TECHNIQUE_LABELS, applyStep, cloneState, contradiction, easiestStep, findStep, gradeHuman, stateOf } from './techniques.ts';
import type { CellDigit, HumanState, Step, TechniqueId } from './techniques.ts';
import { randomPuzzle, referenceClaimErrors, referenceSolutions } from './referenceSolver.ts';
import { gradePropagation } from './propagation.ts';
import { gridFromLine, gridToLine } from './testGrid.ts';

const WIKIPEDIA = '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79';
const ESCARGOT = '1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..';

/** A random position on the way to the solution: some empty cells filled rightly, some wrong candidates pencilled out. */
function progress(puzzle: Grid, solution: Grid, rng: Rng, fill: number, strike: number): { grid: Grid; eliminated: CellDigit[] } {
  const n = puzzle.size;
  const cells = puzzle.cells.map((v, i) => (v === 0 && rng.next() < fill ? solution.cells[i] : v));
  const eliminated: CellDigit[] = [];
  for (let i = 0; i < cells.length; i++) {
    if (cells[i] !== 0) continue;
    for (let v = 1; v <= n; v++) if (v !== solution.cells[i] && rng.next() < strike) eliminated.push({ r: Math.floor(i / n), c: i % n, digit: v });
  }
  return { grid: { ...puzzle, cells }, eliminated };
}

function checkStep(s: HumanState, step: Step, solution: Grid, where: string) {
  const n = s.geo.size;
  expect(referenceClaimErrors(s.geo.shape, s.cells, s.cands, step), `${step.technique} ${where}`).toEqual([]);
  if (step.placed) expect(step.placed.digit, `${step.technique} places the solution's digit ${where}`).toBe(solution.cells[step.placed.r * n + step.placed.c]);
  for (const e of step.eliminated) expect(e.digit, `${step.technique} keeps the solution's digit ${where}`).not.toBe(solution.cells[e.r * n + e.c]);
}

describe('gradeHuman: known boards', () => {
  it('solves the Wikipedia example with singles only, to its published solution', () => {
    const r = gradeHuman(gridFromLine(WIKIPEDIA));
    expect(r.solved).toBe(true);
    expect(r.contradiction).toBe(false);
    expect(r.steps).toBe(51);
    expect(r.counts['naked-single'] + r.counts['hidden-single']).toBe(51);
    expect(['naked-single', 'hidden-single']).toContain(r.hardest);
    expect(gridToLine({ ...gridFromLine(WIKIPEDIA), cells: r.cells }).slice(0, 9)).toBe('534678912');
  });

  it('stalls on AI Escargot: hardest "search", not solved, every step it did take still true', () => {
    const grid = gridFromLine(ESCARGOT);
    const r = gradeHuman(grid);
    expect(r.solved).toBe(false);
    expect(r.contradiction).toBe(false);
    expect(r.hardest).toBe('search');
    const [sol] = referenceSolutions(grid, 1);
    r.cells.forEach((v, i) => v !== 0 && expect(v).toBe(sol.cells[i]));
  });

  it('needs nothing on a full board (hardest null, no steps) and finds a contradiction on a broken one', () => {
    const full = gradeHuman(gridFromLine('1234341221434321'));
    expect(full).toMatchObject({ solved: true, contradiction: false, hardest: null, steps: 0 });
    const twice = gradeHuman(gridFromLine('11' + '.'.repeat(14)));
    expect(twice).toMatchObject({ solved: false, contradiction: true, hardest: 'search' });
    expect(contradiction(stateOf(gridFromLine('11' + '.'.repeat(14))))).toMatchObject({ kind: 'duplicate', unit: { kind: 'row', index: 0 }, digit: 1 });
    // Row 1 needs a 4, but a 4 stands in the column and box of each of its empty cells: no candidate or no place.
    const stuck = stateOf(gridFromLine('12..' + '...4' + '..4.' + '....'));
    expect(contradiction(stuck)).not.toBeNull();
  });

  it('maxSteps stops early without claiming a solution', () => {
    const r = gradeHuman(gridFromLine(WIKIPEDIA), 5);
    expect(r).toMatchObject({ solved: false, steps: 5, hardest: 'search' });
  });

  it('names each single with its unit and cell', () => {
    const s = stateOf(gridFromLine(WIKIPEDIA));
    const naked = findStep(s, 'naked-single')!;
    expect(naked.placed).toEqual({ r: 4, c: 4, digit: 5 });
    const hidden = findStep(s, 'hidden-single')!;
    expect(hidden.units).toHaveLength(1);
    checkStep(s, naked, gridFromLine(referenceSolutionLine(WIKIPEDIA)), 'wiki');
    checkStep(s, hidden, gridFromLine(referenceSolutionLine(WIKIPEDIA)), 'wiki');
  });
});

function referenceSolutionLine(line: string): string {
  return gridToLine(referenceSolutions(gridFromLine(line), 1)[0]);
}

describe('gradeHuman on every box shape', () => {
  const cases: [Shape, number][] = [[shapeOf(2, 2), 0], [shapeOf(2, 3), 0], [shapeOf(3, 2), 0], [shapeOf(3, 3), 0], [shapeOf(3, 4), 80], [shapeOf(4, 4), 170]];
  for (const [shape, keep] of cases) {
    it(`${shape.size}x${shape.size} with ${shape.boxRows}x${shape.boxCols} boxes: what it places is the solution, hardest matches the counts`, () => {
      const rng = createRng(shape.size * 100 + shape.boxRows);
      let solvedAny = false;
      for (let k = 0; k < 6; k++) {
        const { puzzle, solution } = randomPuzzle(shape, rng, keep);
        const r = gradeHuman(puzzle);
        expect(r.contradiction).toBe(false);
        r.cells.forEach((v, i) => v !== 0 && expect(v).toBe(solution.cells[i]));
        const used = TECHNIQUES.filter((t) => r.counts[t] > 0);
        expect(Object.values(r.counts).reduce((a, b) => a + b, 0)).toBe(r.steps);
        if (r.solved) {
          solvedAny = true;
          expect(Array.from(r.cells)).toEqual(Array.from(solution.cells));
          expect(r.hardest).toBe(used[used.length - 1]);
        } else expect(r.hardest).toBe('search');
      }
      expect(solvedAny).toBe(true);
    });
  }
});

describe('every technique step is true of its board (reference check) and sound (the solution survives)', () => {
  it('over random progress states of random unique puzzles, every technique found is checked; each one is seen', () => {
    const rng = createRng(3401);
    const seen = Object.fromEntries(TECHNIQUES.map((t) => [t, 0])) as Record<TechniqueId, number>;
    const shapes = [shapeOf(3, 3), shapeOf(3, 3), shapeOf(2, 3), shapeOf(2, 2), shapeOf(3, 2)];
    for (let k = 0; k < 40; k++) {
      const shape = shapes[k % shapes.length];
      const { puzzle, solution } = randomPuzzle(shape, rng);
      const { grid, eliminated } = progress(puzzle, solution, rng, rng.next() * 0.4, rng.next() * 0.5);
      const s = stateOf(grid, eliminated);
      const where = `on ${gridToLine(grid)} less ${JSON.stringify(eliminated)}`;
      // Each technique on its own, on the position as it is.
      for (const t of TECHNIQUES) {
        const step = findStep(s, t);
        if (!step) continue;
        seen[t]++;
        checkStep(s, step, solution, where);
      }
      // Then the ladder from there, checking every step on the state it was found on.
      const walk = cloneState(s);
      for (let steps = 0; steps < 400; steps++) {
        const step = easiestStep(walk);
        if (!step) break;
        seen[step.technique]++;
        checkStep(walk, step, solution, `${where} after ${steps} steps`);
        applyStep(walk, step);
      }
      expect(contradiction(walk)).toBeNull();
    }
    for (const t of TECHNIQUES) expect(seen[t], t).toBeGreaterThan(0);
  });

  it('placing a digit clears it from its peers; eliminating clears only the named candidates', () => {
    const s = stateOf(gridFromLine(WIKIPEDIA));
    const step = findStep(s, 'naked-single')!;
    const before = s.cands.slice();
    applyStep(s, step);
    const i = step.placed!.r * 9 + step.placed!.c;
    expect(s.cells[i]).toBe(step.placed!.digit);
    for (const j of s.geo.peers[i]) expect(s.cands[j] & bit(step.placed!.digit)).toBe(0);
    const untouched = [...before.keys()].filter((j) => j !== i && !s.geo.peers[i].includes(j));
    for (const j of untouched) expect(s.cands[j]).toBe(before[j]);
  });
});

describe('the two ladders agree where they must', () => {
  it('forward checking solves a board exactly when naked singles alone do; singles solving implies domain consistency does', () => {
    const rng = createRng(3402);
    let valueGraded = 0, singlesOnly = 0;
    for (let k = 0; k < 40; k++) {
      const shape = [shapeOf(3, 3), shapeOf(2, 3), shapeOf(2, 2)][k % 3];
      const { puzzle, solution } = randomPuzzle(shape, rng, k % 2 ? 0 : Math.floor(shape.size * shape.size * 0.45));
      const human = gradeHuman(puzzle);
      const grade = gradePropagation(puzzle, { allLevels: true });
      const nakedOnly = human.solved && human.steps === human.counts['naked-single'];
      expect(grade.grade === 'value', gridToLine(puzzle)).toBe(nakedOnly);
      const singles = human.solved && human.steps === human.counts['naked-single'] + human.counts['hidden-single'];
      if (singles) expect(grade.levels.find((l) => l.level === 'domain')!.solved, gridToLine(puzzle)).toBe(true);
      if (grade.grade === 'value') valueGraded++;
      if (singles && !nakedOnly) singlesOnly++;
      expect(human.solved ? Array.from(human.cells) : []).toEqual(human.solved ? Array.from(solution.cells) : []);
    }
    expect(valueGraded).toBeGreaterThan(0);
    expect(singlesOnly).toBeGreaterThan(0);
  });
});

describe('technique steps on large boards', () => {
  it('12x12 (3x4) and 16x16 (4x4): every step along the ladder is true and sound', () => {
    const rng = createRng(3403);
    for (const [shape, keep] of [[shapeOf(3, 4), 70], [shapeOf(4, 4), 150], [shapeOf(4, 3), 70]] as const) {
      const { puzzle, solution } = randomPuzzle(shape, rng, keep);
      const { grid, eliminated } = progress(puzzle, solution, rng, 0.1, 0.2);
      const s = stateOf(grid, eliminated);
      let steps = 0;
      for (; steps < 400; steps++) {
        const step = easiestStep(s);
        if (!step) break;
        checkStep(s, step, solution, `${shape.size}x${shape.size} step ${steps}`);
        applyStep(s, step);
      }
      expect(steps).toBeGreaterThan(10);
      expect(contradiction(s)).toBeNull();
    }
  });
});

describe('technique labels', () => {
  it('names every technique on the ladder once, in words', () => {
    expect(Object.keys(TECHNIQUE_LABELS).sort()).toEqual([...TECHNIQUES].sort());
    expect(new Set(Object.values(TECHNIQUE_LABELS)).size).toBe(TECHNIQUES.length);
    expect(TECHNIQUE_LABELS['xy-wing']).toBe('XY-wing');
  });
});
