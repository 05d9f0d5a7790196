// Difficulty levels, footholds, passes and forced cells on hand-checked puzzles.
import { describe, expect, it } from 'vitest';
import { HumanMetrics } from '../schema/puzzle.ts';
import { EMPTY, FILLED, cloneGrid, cluesOf, gridFromRows } from './grid.ts';
import { randomSolution } from './generate.ts';
import { difficulty, footholds, initialOverlapCells } from './metrics.ts';
import { KnownSolutionError } from './solvePuzzle.ts';

const clues = (rows: string[]) => cluesOf(gridFromRows(rows));

describe('difficulty', () => {
  it('level 1: the overlap rule alone solves the heart', () => {
    const m = difficulty(clues(['.#.#.', '#####', '#####', '.###.', '..#..']));
    expect(m).toMatchObject({ level: 1, unique: true, solutions: 1, footholds: 2, foothold_cells: 10, line_solved_cells: 25 });
    expect(m.line_passes).toBeGreaterThan(0);
    expect(m.line_steps).toBeGreaterThanOrEqual(m.line_passes);
    expect(HumanMetrics.safeParse(m).success).toBe(true);
  });

  it('level 2: needs complete line solving beyond overlap', () => {
    const m = difficulty(clues(['.###...', '...#.##', '#.###..', '..####.', '#.####.', '.###.#.', '#...#..']));
    expect(m).toMatchObject({ level: 2, unique: true, footholds: 0, foothold_cells: 0, probes: 0, line_solved_cells: 49 });
  });

  it('level 3: line solving stalls, one probe finishes it', () => {
    const m = difficulty(clues(['.##.', '##..', '.##.', '#..#']));
    expect(m).toMatchObject({ level: 3, unique: true, probe_hits: 1, search_nodes: 0 });
    expect(m.line_solved_cells).toBeLessThan(16);
  });

  it('level 4 with forced cells: an ambiguous puzzle', () => {
    // The top-left 2x2 can be either diagonal; everything else is forced.
    const m = difficulty(clues(['#..#', '.#.#', '....', '####']));
    expect(m).toMatchObject({ level: 4, unique: false, solutions: 2, forced_cells: 12, forced_filled: 6, forced_empty: 6 });
    expect(HumanMetrics.safeParse(m).success).toBe(true);
    // Without forced cells, the flag skips the work.
    expect(difficulty(clues(['#..#', '.#.#', '....', '####']), { forcedCells: false }).forced_cells).toBeUndefined();
  });

  it('contradictory clues: level 4, no solutions', () => {
    expect(difficulty({ rows: [[2], []], cols: [[1], []] })).toMatchObject({ level: 4, solutions: 0, unique: false });
  });
});

describe('footholds', () => {
  it('counts lines fixed by their clue alone and the distinct cells they cover', () => {
    // Footholds: row 1 (clue 5), rows 2 and 4 (empty), column 1 (clue 1 1 1 fills 5 cells exactly).
    const c = clues(['#####', '.....', '#.#..', '.....', '#....']);
    const f = footholds(c);
    expect(f.lines).toBe(4);
    // Rows 1, 2, 4 cover 15 cells; column 1 adds its cells in rows 3 and 5.
    expect(f.cells).toBe(17);
    expect(initialOverlapCells(c)).toBeGreaterThanOrEqual(f.cells);
  });

  it('with a known solution: the same metrics, uniqueness decided exactly even when the grading search runs out of nodes', () => {
    for (const [density, seed] of [[0.45, 377], [0.5, 3], [0.35, 8], [0.6, 1]] as const) {
      const g = randomSolution(20, 20, density, seed);
      const alone = difficulty(cluesOf(g), { forcedCells: false });
      const known = difficulty(cluesOf(g), { forcedCells: false, knownSolution: g });
      // A non-unique board's search_nodes counts the search that found two solutions: none ran.
      expect(known).toEqual(alone.unique ? alone : { ...alone, search_nodes: 0 });
    }
    // With forced cells (non-unique boards run the search for them): the same metrics.
    for (let seed = 0; seed < 40; seed++) {
      const g = randomSolution(8, 8, 0.45, seed);
      expect(difficulty(cluesOf(g), { knownSolution: g })).toEqual(difficulty(cluesOf(g)));
    }
    // A unique 20x20 board that needs 23 search nodes: with 2 allowed, the search alone cannot
    // tell it from a non-unique one; the known solution settles uniqueness and the grade is flagged.
    const g = randomSolution(20, 20, 0.45, 377);
    const full = difficulty(cluesOf(g), { forcedCells: false });
    expect(full).toMatchObject({ unique: true, level: 4, search_nodes: 23 });
    expect(difficulty(cluesOf(g), { forcedCells: false, maxNodes: 2 })).toMatchObject({ unique: false, search_incomplete: true });
    expect(difficulty(cluesOf(g), { forcedCells: false, maxNodes: 2, knownSolution: g })).toMatchObject({ unique: true, solutions: 1, level: 4, search_incomplete: true });
    const wrong = cloneGrid(g);
    wrong.cells[0] = wrong.cells[0] === FILLED ? EMPTY : FILLED;
    expect(() => difficulty(cluesOf(g), { knownSolution: wrong })).toThrow(KnownSolutionError);
  });
});
