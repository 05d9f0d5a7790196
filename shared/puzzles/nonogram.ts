// The Nonogram kind: its engine is shared/nonogram/ (with its CNF encodings in shared/sat/); this is its one door.
import { Puzzle } from '../schema/puzzle.ts';
import { difficulty, gridFromRows, gridToRows, hint as nonogramHint, parsePuzzleFile, solvePuzzle } from '../nonogram/index.ts';
import { hintHeading } from '../nonogram/hint.ts';
import { countWrongCells, gridFromBoardRows, matchesSolution } from '../game/board.ts';
import { encode, forcedCells, satMetricsRecord, writeDimacs, type Encoding } from '../sat/index.ts';
import type { KindSolveLine, PuzzleKind } from './kind.ts';

const ENCODINGS: readonly Encoding[] = ['block-start', 'dfa', 'line-gac'];

const clues = (p: Puzzle) => ({ rows: p.rows, cols: p.cols });

/** The puzzle's one solution (solvePuzzle, limit 2), or an Error saying why there is none to record. */
function uniqueRows(p: Puzzle): string[] {
  const r = solvePuzzle(clues(p), { limit: 2 });
  if (r.count === 0) throw new Error(`puzzle ${p.id}: its clues have no solution`);
  if (r.count >= 2) throw new Error(`puzzle ${p.id}: its clues have more than one solution`);
  return gridToRows(r.solutions[0]);
}

export const nonogram: PuzzleKind<Puzzle> = {
  id: 'nonogram',
  name: 'Nonogram',
  schema: Puzzle,
  // The default kind: any file that is not another kind's.
  recognizes: () => true,
  parseFile: (text, file) => parsePuzzleFile(text, file),
  writeRecord: (p) => JSON.stringify(p),
  sizeOf: (p) => `${p.width}x${p.height}`,
  solutionOf: (p) => p.solution ?? null,
  solve(p, { limit, deadline, now }) {
    const t0 = now?.() ?? 0;
    const r = solvePuzzle(clues(p), { limit, ...(now ? { now } : {}), ...(deadline !== undefined ? { deadline } : {}) });
    const line: KindSolveLine = {
      id: p.id,
      width: p.width,
      height: p.height,
      solutions: r.count,
      complete: r.complete,
      time_ms: now ? Math.round((now() - t0) * 10) / 10 : 0,
      settled_by: r.settledBy,
      solution: r.solutions[0] ? gridToRows(r.solutions[0]) : null,
    };
    if (r.solutions[1]) line.second = gridToRows(r.solutions[1]);
    return line;
  },
  withSolution: (p) => (p.solution ? p : { ...p, solution: uniqueRows(p) }),
  encodings: ENCODINGS,
  defaultEncoding: 'block-start',
  defaultMetric: 'sat_conflicts',
  draw: (rows, second) =>
    rows
      .map((row, r) => {
        const left = [...row].map((ch) => (ch === '#' ? '██' : '· ')).join('');
        if (!second) return left;
        const right = [...second[r]].map((ch, c) => (ch === row[c] ? (ch === '#' ? '██' : '· ') : ch === '#' ? '▓▓' : '○ ')).join('');
        return `${left}   ${right}`;
      })
      .join('\n') + (second ? '\n(right: the second solution; ▓▓ and ○ mark the cells where it differs)' : ''),
  dimacs(p, encoding) {
    if (!(ENCODINGS as readonly string[]).includes(encoding)) throw new Error(`a Nonogram has no '${encoding}' encoding (${ENCODINGS.join(', ')})`);
    return writeDimacs(encode(clues(p), encoding as Encoding));
  },
  satMetrics: (p) => satMetricsRecord(clues(p)),
  humanMetrics: (p) => ({ ...difficulty(clues(p)) }),
  forced(p) {
    const r = forcedCells(clues(p));
    const rows: string[] = [];
    for (let y = 0; y < p.height; y++) {
      let s = '';
      for (let x = 0; x < p.width; x++) {
        const v = r.grid.cells[y * p.width + x];
        s += v === 1 ? '#' : v === 2 ? '.' : '?';
      }
      rows.push(s);
    }
    return { rows, forced: r.forcedFilled + r.forcedEmpty, complete: r.undecided === 0 };
  },
  hint(p, board) {
    const solution = p.solution ?? uniqueRows(p);
    const h = nonogramHint(clues(p), gridFromBoardRows(board, p.width, p.height), gridFromRows(solution));
    return h && { kind: h.kind, row: h.row, col: h.col, heading: hintHeading(h), explanation: h.explanation, reasoning: h.reasoning };
  },
  check(p, board) {
    const solution = p.solution ?? uniqueRows(p);
    return { solved: matchesSolution(board, solution), wrong: countWrongCells(board, solution) };
  },
};
