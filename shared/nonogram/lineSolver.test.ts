// The line solver against brute force: every clue of every length up to 12, exhaustive partial states for short lines.
import { describe, expect, it } from 'vitest';
import { createRng } from '../random.ts';
import { EMPTY, FILLED, UNKNOWN, lineClue } from './grid.ts';
import { lineSolve, lineSolveOverlap, solveLineInPlace } from './lineSolver.ts';

/** All full lines of length n (as Uint8Array of FILLED/EMPTY) grouped by clue text. */
function linesByClue(n: number): Map<string, { clue: number[]; lines: Uint8Array[] }> {
  const groups = new Map<string, { clue: number[]; lines: Uint8Array[] }>();
  for (let mask = 0; mask < 1 << n; mask++) {
    const line = new Uint8Array(n);
    for (let i = 0; i < n; i++) line[i] = (mask >> i) & 1 ? FILLED : EMPTY;
    const clue = lineClue(line, 0, n, 1);
    const key = clue.join(',');
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { clue, lines: [] }));
    g.lines.push(line);
  }
  return groups;
}

/** Brute force: intersect all full lines of the clue that agree with the partial state. */
function bruteForce(lines: Uint8Array[], partial: ArrayLike<number>): 'contradiction' | number[] {
  const n = partial.length;
  let out: number[] | null = null;
  for (const line of lines) {
    let ok = true;
    for (let i = 0; i < n && ok; i++) if (partial[i] !== UNKNOWN && partial[i] !== line[i]) ok = false;
    if (!ok) continue;
    if (!out) out = Array.from(line);
    else for (let i = 0; i < n; i++) if (out[i] !== line[i]) out[i] = UNKNOWN;
  }
  return out ?? 'contradiction';
}

describe('lineSolve', () => {
  it('matches brute force on every clue and every partial state for lengths 0..7', () => {
    let checked = 0;
    for (let n = 0; n <= 7; n++) {
      const groups = linesByClue(n);
      const states = 3 ** n;
      for (const { clue, lines } of groups.values()) {
        for (let code = 0; code < states; code++) {
          const partial: number[] = [];
          for (let i = 0, c = code; i < n; i++, c = Math.floor(c / 3)) partial.push(c % 3);
          expect(lineSolve(clue, partial), `clue ${clue} partial ${partial}`).toEqual(bruteForce(lines, partial));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(70_000);
  });

  it('matches brute force on every clue of lengths 8..12 with random partial states', () => {
    const rng = createRng(12);
    let contradictions = 0;
    let consistent = 0;
    for (let n = 8; n <= 12; n++) {
      for (const { clue, lines } of linesByClue(n).values()) {
        expect(lineSolve(clue, new Array(n).fill(UNKNOWN))).toEqual(bruteForce(lines, new Array(n).fill(UNKNOWN)));
        for (let t = 0; t < 12; t++) {
          let partial: number[];
          if (t % 2 === 0) {
            // Reveal a random subset of one true line: always consistent.
            const truth = lines[rng.int(lines.length)];
            const p = rng.next();
            partial = Array.from(truth, (v) => (rng.next() < p ? v : UNKNOWN));
          } else {
            // Random noise: often contradictory.
            const p = rng.next() * 0.5;
            partial = Array.from({ length: n }, () => (rng.next() < p ? (rng.next() < 0.5 ? FILLED : EMPTY) : UNKNOWN));
          }
          const expected = bruteForce(lines, partial);
          if (expected === 'contradiction') contradictions++;
          else consistent++;
          expect(lineSolve(clue, partial), `clue ${clue} partial ${partial}`).toEqual(expected);
        }
      }
    }
    expect(contradictions).toBeGreaterThan(100);
    expect(consistent).toBeGreaterThan(1000);
  });

  it('walks a column by stride without touching other cells', () => {
    // 3x4 grid, column 1 has clue [2] and a known filled cell at row 2: rows 1..3 possible.
    const cells = new Uint8Array(12).fill(7);
    for (let r = 0; r < 4; r++) cells[r * 3 + 1] = UNKNOWN;
    cells[2 * 3 + 1] = FILLED;
    const n = solveLineInPlace([2], cells, 1, 4, 3);
    expect(n).toBe(1);
    expect(Array.from(cells)).toEqual([7, EMPTY, 7, 7, UNKNOWN, 7, 7, FILLED, 7, 7, UNKNOWN, 7]);
  });

  it('finds cells beyond the left/right overlap', () => {
    // Clue [1,1] on 5 cells with the middle known filled: cells 1 and 3 must be empty.
    expect(lineSolve([1, 1], [0, 0, FILLED, 0, 0])).toEqual([0, EMPTY, FILLED, EMPTY, 0]);
    // The overlap rule alone is weaker here: block 0's range is [0,2], block 1's [2,4].
    expect(lineSolveOverlap([1, 1], [0, 0, FILLED, 0, 0])).toEqual([0, 0, FILLED, 0, 0]);
  });
});

describe('lineSolveOverlap', () => {
  it('is sound: every cell it sets agrees with complete line solving (lengths 1..10)', () => {
    const rng = createRng(5);
    for (let n = 1; n <= 10; n++) {
      for (const { clue, lines } of linesByClue(n).values()) {
        for (let t = 0; t < 6; t++) {
          const truth = lines[rng.int(lines.length)];
          const partial = Array.from(truth, (v) => (rng.next() < 0.3 ? v : UNKNOWN));
          const complete = lineSolve(clue, partial);
          const overlap = lineSolveOverlap(clue, partial);
          expect(complete).not.toBe('contradiction');
          expect(overlap).not.toBe('contradiction');
          if (complete === 'contradiction' || overlap === 'contradiction') continue;
          for (let i = 0; i < n; i++) {
            if (overlap[i] !== UNKNOWN) expect(overlap[i]).toBe(complete[i]);
            if (partial[i] !== UNKNOWN) expect(overlap[i]).toBe(partial[i]);
          }
        }
      }
    }
  });

  it('finds the textbook overlap on a blank line', () => {
    // Clue [4] on 6 cells: cells 2,3 filled by overlap.
    expect(lineSolveOverlap([4], [0, 0, 0, 0, 0, 0])).toEqual([0, 0, FILLED, FILLED, 0, 0]);
    // Clue [3,1] on 5 cells: fully determined.
    expect(lineSolveOverlap([3, 1], [0, 0, 0, 0, 0])).toEqual([FILLED, FILLED, FILLED, EMPTY, FILLED]);
  });
});

describe('LineCache (issue 41)', () => {
  it('answers exactly as solveLineInPlace: the same cells, the same changed positions, the same contradictions, for short and long lines', async () => {
    const { LineCache, changedPositions } = await import('./lineSolver.ts');
    const rng = createRng(41);
    const cache = new LineCache(500); // small, so it also starts again empty during the test
    let hits = 0;
    for (let t = 0; t < 6000; t++) {
      const n = t % 3 === 0 ? 34 + rng.int(20) : 1 + rng.int(25); // above 33 cells the key is a string
      const full = new Uint8Array(n);
      for (let i = 0; i < n; i++) full[i] = rng.next() < 0.5 ? FILLED : EMPTY;
      const clue = rng.next() < 0.1 ? [1 + rng.int(3)] : lineClue(full, 0, n, 1);
      // Each line (its own index: one clue per index) is asked twice, so the cache hits; a stride other than 1 as in a column.
      const step = 1 + (t % 3);
      const base = new Uint8Array(n * step);
      for (let i = 0; i < n; i++) base[i * step] = rng.next() < 0.3 ? full[i] : UNKNOWN;
      for (let rep = 0; rep < 2; rep++) {
        const a = base.slice();
        const b = base.slice();
        const ra = solveLineInPlace(clue, a, 0, n, step);
        const posA = Array.from(changedPositions().subarray(0, Math.max(ra, 0)));
        const before = cache.hits;
        const rb = cache.solve(t, clue, b, 0, n, step);
        const posB = Array.from(changedPositions().subarray(0, Math.max(rb, 0)));
        if (cache.hits > before) hits++;
        expect(rb).toBe(ra);
        if (ra >= 0) {
          expect(Array.from(b)).toEqual(Array.from(a));
          expect(posB).toEqual(posA);
        }
      }
    }
    expect(hits).toBeGreaterThan(4000);
  });
});

describe('LineCache over shared LineResults (issue 41: makeUnique tries many one-cell variants of a board)', () => {
  it('caches of different clue sets share results by clue and length, and answer exactly as solveLineInPlace', async () => {
    const { LineCache, LineResults, changedPositions } = await import('./lineSolver.ts');
    const rng = createRng(4141);
    const results = new LineResults(400); // small, so it also starts again empty during the test
    let sharedHits = 0;
    for (let t = 0; t < 300; t++) {
      // A random 6x5 board; every board's clue set gets its own cache over the one store.
      const w = 6;
      const h = 5;
      const cells = new Uint8Array(w * h);
      for (let i = 0; i < cells.length; i++) cells[i] = rng.next() < 0.5 ? FILLED : EMPTY;
      const rows = Array.from({ length: h }, (_, r) => lineClue(cells, r * w, w, 1));
      const cols = Array.from({ length: w }, (_, c) => lineClue(cells, c, h, w));
      const cache = new LineCache(undefined, { results, clues: { rows, cols } });
      for (let line = 0; line < h + w; line++) {
        const isRow = line < h;
        const n = isRow ? w : h;
        const start = isRow ? line * w : line - h;
        const step = isRow ? 1 : w;
        const clue = isRow ? rows[line] : cols[line - h];
        const a = new Uint8Array(w * h);
        // Partial knowledge drawn from a few patterns, so that lines meet again across boards.
        for (let i = 0, p = start; i < n; i++, p += step) a[p] = rng.int(4) === 0 ? cells[p] : UNKNOWN;
        if (rng.next() < 0.1) a[start] = a[start] === FILLED ? EMPTY : FILLED; // now and then a contradiction
        const b = a.slice();
        const ra = solveLineInPlace(clue, a, start, n, step);
        const posA = Array.from(changedPositions().subarray(0, Math.max(ra, 0)));
        const before = cache.hits;
        const rb = cache.solve(line, clue, b, start, n, step);
        if (cache.hits > before) sharedHits++;
        expect(rb).toBe(ra);
        if (ra >= 0) {
          expect(Array.from(b)).toEqual(Array.from(a));
          expect(Array.from(changedPositions().subarray(0, rb))).toEqual(posA);
        }
      }
    }
    // Every cache is new, so each hit is a result another board's cache stored.
    expect(sharedHits).toBeGreaterThan(100);
  });
});
