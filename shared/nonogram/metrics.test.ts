// Difficulty levels, footholds, passes and forced cells on hand-checked puzzles.
import { describe, expect, it } from 'vitest';
import { HumanMetrics } from '../schema/puzzle.ts';
import { cluesOf, gridFromRows } from './grid.ts';
import { difficulty, footholds, initialOverlapCells } from './metrics.ts';

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
});
