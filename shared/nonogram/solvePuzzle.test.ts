// solvePuzzle against brute force on small boards and against native MiniSat (block-start CNF, first solution blocked) on 20x20 and 30x30.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { encodeBlockStart } from '../sat/blockStart.ts';
import { writeDimacs } from '../sat/dimacs.ts';
import { EMPTY, FILLED, UNKNOWN, cloneGrid, cluesOf, createGrid, gridToRows, lineClue } from './grid.ts';
import type { Clues, Grid } from './grid.ts';
import { randomSolution } from './generate.ts';
import { countSolutions } from './solver.ts';
import { checkKnownSolution, KnownSolutionError, satisfiesClues, solvePuzzle } from './solvePuzzle.ts';
import type { SolveEngine } from './solvePuzzle.ts';

/** Every solution, by enumerating each row's valid lines and checking the columns. */
function bruteSolutions(clues: Clues): string[] {
  const width = clues.cols.length;
  const height = clues.rows.length;
  const rowChoices = clues.rows.map((clue) => {
    const out: number[] = [];
    for (let mask = 0; mask < 1 << width; mask++) {
      const line = Array.from({ length: width }, (_, i) => ((mask >> i) & 1 ? FILLED : EMPTY));
      if (lineClue(line, 0, width, 1).join() === clue.join()) out.push(mask);
    }
    return out;
  });
  const found: string[] = [];
  const g = createGrid(width, height, EMPTY);
  const rec = (r: number) => {
    if (r === height) {
      for (let c = 0; c < width; c++) if (lineClue(g.cells, c, height, width).join() !== clues.cols[c].join()) return;
      found.push(gridToRows(g).join('/'));
      return;
    }
    for (const m of rowChoices[r]) {
      for (let c = 0; c < width; c++) g.cells[r * width + c] = (m >> c) & 1 ? FILLED : EMPTY;
      rec(r + 1);
    }
  };
  rec(0);
  return found;
}

function randomClues(width: number, height: number, rng: ReturnType<typeof createRng>, density: number): Clues {
  const g = createGrid(width, height, EMPTY);
  for (let i = 0; i < g.cells.length; i++) if (rng.next() < density) g.cells[i] = FILLED;
  return cluesOf(g);
}

const engines: SolveEngine[] = ['auto', 'sat', 'line'];

describe('solvePuzzle against brute force', () => {
  it('counts exactly (up to limit 3) and returns distinct real solutions, on 600 random small boards and mixed clue sets, every engine', () => {
    const rng = createRng(20);
    const cases: Clues[] = [];
    for (let k = 0; k < 400; k++) {
      const w = 3 + rng.int(3);
      const h = 3 + rng.int(3);
      cases.push(randomClues(w, h, rng, 0.25 + 0.5 * rng.next()));
    }
    // Rows of one board with the columns of another: mostly no solution, sometimes several.
    for (let k = 0; k < 200; k++) {
      const a = randomClues(4, 4, rng, 0.5);
      const b = randomClues(4, 4, rng, 0.5);
      cases.push({ rows: a.rows, cols: b.cols });
    }
    let zero = 0;
    let several = 0;
    for (const clues of cases) {
      const truth = bruteSolutions(clues);
      if (truth.length === 0) zero++;
      if (truth.length >= 2) several++;
      for (const engine of engines) {
        const r = solvePuzzle(clues, { limit: 3, engine });
        expect(r.complete).toBe(true);
        expect(r.count, `${engine} ${JSON.stringify(clues)}`).toBe(Math.min(3, truth.length));
        const found = r.solutions.map((s) => gridToRows(s).join('/'));
        expect(new Set(found).size).toBe(found.length);
        for (const s of found) expect(truth).toContain(s);
      }
    }
    // The sample really covers all three verdicts.
    expect(zero).toBeGreaterThan(20);
    expect(several).toBeGreaterThan(20);
  });

  it('says which step settled it', () => {
    // A board line logic solves: one solution, settled by line.
    const easy = cluesOf(randomSolution(10, 10, 0.7, 3));
    const r = solvePuzzle(easy);
    expect([r.count, r.settledBy]).toEqual([1, 'line']);
    // Two 2x2 diagonals: line logic sets no cell, so `auto` goes straight to SAT; two solutions.
    const twin = { rows: [[1], [1]], cols: [[1], [1]] };
    const a = solvePuzzle(twin);
    expect([a.count, a.settledBy, a.stats.probes, a.stats.searchNodes]).toEqual([2, 'sat', 0, 0]);
    expect(solvePuzzle(twin, { engine: 'line' })).toMatchObject({ count: 2, settledBy: 'search' });
    // Line logic sets the first two rows and the last two columns; a 2x2 diagonal is left to the short search.
    const foothold = { rows: [[4], [], [1], [1]], cols: [[1, 1], [1, 1], [1], [1]] };
    const f = solvePuzzle(foothold);
    expect([f.count, f.settledBy]).toEqual([2, 'search']);
    expect(f.stats.knownCells).toBeGreaterThan(0);
    const s = solvePuzzle(twin, { engine: 'sat' });
    expect([s.count, s.settledBy]).toEqual([2, 'sat']);
    // Totals that disagree: line logic finds the contradiction.
    expect(solvePuzzle({ rows: [[2], [1]], cols: [[1], [1]] })).toMatchObject({ count: 0, complete: true });
  });

  it('the first stage (line logic, short search, cheap probing through the line cache) never changes a verdict, and settles boards no later than without probing (issue 41)', () => {
    const rank = { line: 0, probe: 1, search: 1, sat: 2 } as const;
    let probed = 0;
    let settledEarlier = 0;
    for (const density of [0.4, 0.45, 0.5, 0.55, 0.6]) {
      for (let b = 0; b < 8; b++) {
        const clues = cluesOf(randomSolution(20, 20, density, 4100 + Math.round(density * 100) * 10 + b));
        const auto = solvePuzzle(clues);
        const noProbe = solvePuzzle(clues, { probeBudget: 0 });
        const sat = solvePuzzle(clues, { engine: 'sat' });
        expect([auto.count, auto.complete]).toEqual([sat.count, true]);
        expect([noProbe.count, noProbe.complete]).toEqual([sat.count, true]);
        const found = auto.solutions.map((g) => gridToRows(g).join('/'));
        expect(new Set(found).size).toBe(found.length);
        for (const g of auto.solutions) expect(satisfiesClues(clues, g)).toBe(true);
        if (sat.count === 1) expect(found).toEqual(sat.solutions.map((g) => gridToRows(g).join('/')));
        expect(rank[auto.settledBy]).toBeLessThanOrEqual(rank[noProbe.settledBy]);
        if (auto.stats.probes > 0) probed++;
        if (rank[auto.settledBy] < rank[noProbe.settledBy]) settledEarlier++;
      }
    }
    expect(probed).toBeGreaterThan(5);
    expect(settledEarlier).toBeGreaterThan(0);
  });

  it('the line cache leaves the look-ahead search step for step the same (issue 41)', async () => {
    const { LineCache } = await import('./lineSolver.ts');
    let searched = 0;
    for (const [density, seed] of [[0.35, 1], [0.4, 2], [0.45, 3], [0.5, 4]] as const) {
      const clues = cluesOf(randomSolution(14, 14, density, 900 + seed));
      for (const lookahead of [true, false]) {
        const plain = countSolutions(clues, 3, { lookahead, maxNodes: 5000 });
        const cache = new LineCache();
        const cached = countSolutions(clues, 3, { lookahead, maxNodes: 5000, cache });
        expect([cached.count, cached.nodes, cached.complete]).toEqual([plain.count, plain.nodes, plain.complete]);
        expect(cached.solution && gridToRows(cached.solution)).toEqual(plain.solution && gridToRows(plain.solution));
        if (plain.nodes > 1) {
          searched++;
          expect(cache.hits).toBeGreaterThan(0);
        }
      }
    }
    expect(searched).toBeGreaterThan(3);
  });

  it('a known solution is the first solution and never changes the count (brute force, limits 1-3, every engine)', () => {
    const rng = createRng(5);
    for (let k = 0; k < 120; k++) {
      const w = 4 + rng.int(3);
      const h = 4 + rng.int(3);
      const sol = createGrid(w, h, EMPTY);
      const density = 0.3 + 0.3 * rng.next();
      for (let i = 0; i < w * h; i++) if (rng.next() < density) sol.cells[i] = FILLED;
      const clues = cluesOf(sol);
      const all = bruteSolutions(clues);
      for (const engine of engines) {
        for (const limit of [1, 2, 3]) {
          const r = solvePuzzle(clues, { engine, limit, knownSolution: sol });
          expect(r.complete).toBe(true);
          expect(r.count).toBe(Math.min(limit, all.length));
          const found = r.solutions.map((g) => gridToRows(g).join('/'));
          expect(new Set(found).size).toBe(found.length);
          for (const f of found) expect(all).toContain(f);
          if (engine !== 'line') expect(found[0]).toBe(gridToRows(sol).join('/'));
        }
      }
      // The belief-propagation phases only order the search.
      for (const engine of ['auto', 'sat'] as const) expect(solvePuzzle(clues, { engine, limit: 3, phases: 'marginals' }).count).toBe(Math.min(3, all.length));
      // Probing before the SAT stage (off by default) is sound too.
      expect(solvePuzzle(clues, { limit: 3, probeBudget: 200 }).count).toBe(Math.min(3, all.length));
    }
  });

  it('forced cells (cells every solution shares) beside a known solution never change the count (brute force, limits 1-3, every engine; issue 41)', () => {
    const rng = createRng(41);
    let withForced = 0;
    for (let k = 0; k < 120; k++) {
      const w = 4 + rng.int(3);
      const h = 4 + rng.int(3);
      const sol = createGrid(w, h, EMPTY);
      for (let i = 0; i < w * h; i++) if (rng.next() < 0.5) sol.cells[i] = FILLED;
      const clues = cluesOf(sol);
      const all = bruteSolutions(clues);
      // Some of the cells on which every solution agrees (the backbone), the rest unknown.
      const forced = createGrid(w, h);
      const solRows = gridToRows(sol);
      for (let i = 0; i < w * h; i++) {
        const r = Math.floor(i / w);
        const c = i % w;
        if (all.every((a) => a.split('/')[r][c] === solRows[r][c]) && rng.next() < 0.7) forced.cells[i] = sol.cells[i];
      }
      if (forced.cells.some((v) => v !== UNKNOWN)) withForced++;
      for (const engine of engines) {
        for (const limit of [1, 2, 3]) {
          const r = solvePuzzle(clues, { engine, limit, knownSolution: sol, forced });
          expect(r.complete).toBe(true);
          expect(r.count).toBe(Math.min(limit, all.length));
          const found = r.solutions.map((g) => gridToRows(g).join('/'));
          expect(new Set(found).size).toBe(found.length);
          for (const f of found) expect(all).toContain(f);
        }
      }
    }
    expect(withForced).toBeGreaterThan(100);
    // A forced cell that contradicts the known solution is refused, naming it; forced without a known solution too.
    const sol = randomSolution(6, 5, 0.5, 9);
    const bad = createGrid(6, 5);
    bad.cells[7] = sol.cells[7] === FILLED ? EMPTY : FILLED;
    expect(() => solvePuzzle(cluesOf(sol), { knownSolution: sol, forced: bad })).toThrow(/knownSolution: forced cell \(row 2, col 2\) differs from the known solution/);
    expect(() => solvePuzzle(cluesOf(sol), { knownSolution: sol, forced: createGrid(5, 6) })).toThrow(/forced is 5x6, the clues are for 6x5/);
    expect(() => solvePuzzle(cluesOf(sol), { forced: createGrid(6, 5) })).toThrow(/forced needs knownSolution/);
  });

  it('a known solution on 20x20 and 30x30 boards gives the verdict of the clues alone', () => {
    for (const [size, density, seed] of [[20, 0.4, 1], [20, 0.6, 2], [30, 0.35, 3], [30, 0.5, 4], [30, 0.6, 5], [20, 0.3, 6]] as const) {
      const sol = randomSolution(size, size, density, seed);
      const clues = cluesOf(sol);
      const withKnown = solvePuzzle(clues, { knownSolution: sol });
      const alone = solvePuzzle(clues);
      expect(withKnown.complete && alone.complete).toBe(true);
      expect(withKnown.count).toBe(alone.count);
      for (const g of withKnown.solutions) expect(satisfiesClues(clues, g)).toBe(true);
    }
  });

  it('a known solution that does not solve the clues is refused with an error naming the line, and nothing is solved', () => {
    const sol = randomSolution(6, 5, 0.5, 9);
    const clues = cluesOf(sol);
    const wrong = cloneGrid(sol);
    wrong.cells[2 * 6 + 3] = wrong.cells[2 * 6 + 3] === FILLED ? EMPTY : FILLED;
    expect(() => solvePuzzle(clues, { knownSolution: wrong })).toThrow(KnownSolutionError);
    expect(() => solvePuzzle(clues, { knownSolution: wrong })).toThrow(/knownSolution: row 3 reads \[.*\], its clue is \[.*\]/);
    expect(() => solvePuzzle(clues, { knownSolution: wrong, engine: 'line' })).toThrow(KnownSolutionError);
    expect(() => solvePuzzle(clues, { knownSolution: createGrid(5, 6, EMPTY) })).toThrow(/knownSolution: the grid is 5x6, the clues are for 6x5/);
    const partial = cloneGrid(sol);
    partial.cells[4] = UNKNOWN;
    expect(() => solvePuzzle(clues, { knownSolution: partial })).toThrow(/knownSolution: cell \(row 1, col 5\) is neither filled nor empty/);
    // A column that differs while every row matches: swap two cells within a row.
    const swapped = createGrid(2, 2, EMPTY);
    swapped.cells[0] = FILLED;
    swapped.cells[3] = FILLED;
    const colsDiffer = { rows: [[1], [1]], cols: [[2], []] };
    expect(() => solvePuzzle(colsDiffer, { knownSolution: swapped })).toThrow(/knownSolution: column 1 reads \[1\], its clue is \[2\]/);
    expect(() => checkKnownSolution(clues, sol)).not.toThrow();
  });

  it('a deadline stops the work with complete: false (clock injected, so deterministic)', () => {
    // A 50x50 board at density 0.5 needs thousands of conflicts; the clock is read once per slice
    // of conflicts (100, then 200, ...), so 3 ticks stop it after about 300.
    const clues = cluesOf(randomSolution(50, 50, 0.5, 11));
    let t = 0;
    const r = solvePuzzle(clues, { now: () => (t += 1), deadline: 3 });
    expect(r.complete).toBe(false);
    expect(r.count).toBeLessThan(2);
    for (const s of r.solutions) expect(satisfiesClues(clues, s)).toBe(true);
  });
});

const minisat = ['/usr/bin/minisat', '/usr/local/bin/minisat'].find((p) => spawnSync(p, ['--help']).error === undefined);
const tmp = mkdtempSync(join(tmpdir(), 'nonolab-solve-test-'));

/** Native MiniSat on the block-start CNF plus extra clauses: 'SAT' | 'UNSAT'. */
function nativeVerdict(clues: Clues, extra: number[][]): string {
  if (!minisat) throw new Error('these tests need the minisat binary (apt-get install minisat, as npm test does)');
  const cnf = encodeBlockStart(clues);
  const path = join(tmp, 'board.cnf');
  writeFileSync(path, writeDimacs({ numVars: cnf.numVars, clauses: [...cnf.clauses, ...extra] }));
  const run = spawnSync(minisat, ['-verb=0', path], { encoding: 'utf8' });
  if (/^UNSATISFIABLE/m.test(run.stdout)) return 'UNSAT';
  if (/^SATISFIABLE/m.test(run.stdout)) return 'SAT';
  throw new Error(`minisat said: ${run.stdout} ${run.stderr}`);
}

const blocking = (g: Grid) => Array.from(g.cells, (v, i) => (v === FILLED ? -(i + 1) : i + 1));
const units = (g: Grid) => Array.from(g.cells, (v, i) => [v === FILLED ? i + 1 : -(i + 1)]);

/**
 * Each verdict checked by the native binary: a unique answer means the CNF with the solution
 * blocked is UNSAT; a second solution is a model of the CNF with the first blocked. Hard boards
 * get a conflict budget (deterministic); whatever was found within it is checked the same way.
 */
function crossCheck(size: number, boardsPerDensity: number, conflictBudget: number): { verdicts: number; unique: number } {
  let verdicts = 0;
  let unique = 0;
  for (let d = 30; d <= 60; d += 5) {
    for (let b = 0; b < boardsPerDensity; b++) {
      const truth = randomSolution(size, size, d / 100, 7000 + 100 * d + b);
      const clues = cluesOf(truth);
      const r = solvePuzzle(clues, { conflictBudget });
      for (const s of r.solutions) expect(satisfiesClues(clues, s)).toBe(true);
      if (!r.complete) continue;
      verdicts++;
      expect(r.count).toBeGreaterThanOrEqual(1);
      const first = r.solutions[0];
      if (r.count === 1) {
        unique++;
        expect(nativeVerdict(clues, [blocking(first)]), `unique ${size}x${size} d=${d / 100} board ${b}`).toBe('UNSAT');
      } else {
        expect(nativeVerdict(clues, [blocking(first), ...units(r.solutions[1])])).toBe('SAT');
      }
    }
  }
  return { verdicts, unique };
}

describe('solvePuzzle against the look-ahead search (countSolutions), seeded random boards', () => {
  it('same count (limit 2 and 3) on 400 boards from 8x8 to 15x15, densities 0.25-0.65, plus mixed clue sets with no solution', () => {
    const rng = createRng(77);
    const seen = { none: 0, one: 0, several: 0 };
    for (let k = 0; k < 400; k++) {
      const size = 8 + rng.int(8);
      const density = 0.25 + 0.4 * rng.next();
      let clues = cluesOf(randomSolution(size, size, density, 9000 + k));
      // Every fifth: the rows of one board with the columns of another of the same fill (mostly no solution).
      if (k % 5 === 0) clues = { rows: clues.rows, cols: cluesOf(randomSolution(size, size, density, 19000 + k)).cols };
      const limit = k % 2 === 0 ? 2 : 3;
      const reference = countSolutions(clues, limit);
      expect(reference.complete).toBe(true);
      if (reference.count === 0) seen.none++;
      else if (reference.count === 1) seen.one++;
      else seen.several++;
      for (const engine of ['auto', 'sat'] as const) {
        const r = solvePuzzle(clues, { limit, engine });
        expect(r.complete).toBe(true);
        expect(r.count, `${engine} board ${k} (${size}x${size}, d=${density.toFixed(2)})`).toBe(reference.count);
        const found = r.solutions.map((g) => gridToRows(g).join('/'));
        expect(new Set(found).size).toBe(found.length);
        for (const g of r.solutions) expect(satisfiesClues(clues, g)).toBe(true);
        if (reference.count === 1) expect(found[0]).toBe(gridToRows(reference.solution as Grid).join('/'));
      }
    }
    expect(seen.none).toBeGreaterThan(30);
    expect(seen.one).toBeGreaterThan(30);
    expect(seen.several).toBeGreaterThan(30);
  });
});

describe('solvePuzzle against native MiniSat (block-start CNF, first solution blocked)', () => {
  it('random 20x20 boards, densities 0.30 to 0.60', () => {
    const { verdicts, unique } = crossCheck(20, 2, 20_000);
    expect(verdicts).toBeGreaterThanOrEqual(12);
    expect(unique).toBeGreaterThanOrEqual(2);
  });

  it('random 30x30 boards, densities 0.30 to 0.60', () => {
    const { verdicts, unique } = crossCheck(30, 1, 3_000);
    expect(verdicts).toBeGreaterThanOrEqual(3);
    expect(unique).toBeGreaterThanOrEqual(1);
  });
});
