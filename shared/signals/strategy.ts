// One attempt's strategy, measured from its trajectory: the share of changes at each reasoning level, guesses, backtracks, footholds, line order, time per level.
/*
 * The rows of strategy.csv (analysis/pipeline writes it beside attempts.csv, one row per attempt, joined on
 * participant_id, puzzle_id, position). The levels are the kind's labels (trajectory.ts): a Nonogram's overlap, line,
 * two-lines, probing, guess; a Sudoku's techniques of the human ladder (naked-single ... xy-wing) and guess. A level's
 * column is its label with '_' for '-'. `mean_rung` puts the levels on one scale: the mean 1-based rung of the
 * labelled changes that are not guesses (Nonogram: overlap 1, line 2, two-lines 3, probing 4; Sudoku: naked-single 1
 * ... xy-wing 11), so a higher mean is harder reasoning on the same puzzle kind.
 *
 * Footholds (the paper's Figure 6 rule). A Nonogram's foothold line is a row or column its clue alone determines: an
 * empty clue, or runs that fill the line exactly (sum of the runs plus the gaps between them equals its length); a
 * change is on a foothold when its row or its column is one. A Sudoku's footholds are the cells a single (naked or
 * hidden) places on the board as given: what the first rung settles before anything is written. The first action is
 * the participant's first change (reveals, the system's, left out).
 */
import { z } from 'zod';
import { EMPTY, FILLED, cluesOf, createGrid } from '../nonogram/grid.ts';
import { REASONING_LABELS } from '../nonogram/reasoning.ts';
import { DIGIT_SYMBOLS, defaultBox, shapeOf } from '../sudoku/grid.ts';
import { SUDOKU_REASONING_LABELS, singlesOnGivens } from '../sudoku/reasoning.ts';
import type { SignalPuzzle } from './attempts.ts';
import type { TrajectoryLabel, TrajectoryRow } from './trajectory.ts';

export type StrategyKind = 'nonogram' | 'sudoku';

/** The level labels of a kind, in ladder order (guess last). */
export const STRATEGY_LEVELS: Record<StrategyKind, readonly TrajectoryLabel[]> = { nonogram: REASONING_LABELS, sudoku: SUDOKU_REASONING_LABELS };

const key = (label: string) => label.replace(/-/g, '_');

const Count = z.number().int().nonnegative();
const Share = z.number().min(0).max(1).nullable();
const Seconds = z.number().nonnegative();
const LEVEL_KEYS = [...new Set([...REASONING_LABELS, ...SUDOKU_REASONING_LABELS].map(key))];

/**
 * One attempt's strategy row (strategy.csv; strict: no other field): the common columns, and for each level L of the
 * row's kind (its key: the label with '_' for '-'): `L` the count, `share_L` its share of `marks` (null without
 * marks), `time_L_s` the seconds of the gaps before them. The other kind's level fields are absent.
 */
const StrategyCommon = z.object({
    participant_id: z.string(),
    puzzle_id: z.string(),
    kind: z.enum(['nonogram', 'sudoku']),
    position: z.number().int().positive(),
    attempt: z.number().int().positive(),
    /** Cell changes, and among them the labelled ones (a Nonogram's changes to filled or crossed, a Sudoku's digits written). */
    changes: Count,
    marks: Count,
    share_line_family: Share.optional(),
    share_singles: Share.optional(),
    mean_rung: z.number().min(1).nullable(),
    backtracks: Count,
    first_row: z.number().int().nonnegative().nullable(),
    first_col: z.number().int().nonnegative().nullable(),
    first_reasoning: z.enum([...new Set<string>([...REASONING_LABELS, ...SUDOKU_REASONING_LABELS])] as [string, ...string[]]).nullable(),
    first_on_foothold: z.boolean().nullable(),
    same_line_share: Share,
    reading_order_share: Share,
    foothold_early_share: Share,
    foothold_board_share: z.number().min(0).max(1),
    line_order: z.enum(['row-major', 'foothold-driven', 'scattered']).nullable(),
});
const levelFields: Record<string, z.ZodTypeAny> = Object.fromEntries(LEVEL_KEYS.flatMap((l) => [[l, Count.optional()], [`share_${l}`, Share.optional()], [`time_${l}_s`, Seconds.optional()]]));
export const StrategyRow = StrategyCommon.extend(levelFields).strict();
/** (The level fields are named by the kind's labels, so the code fills a row by key: the type is the common fields and that record.) */
export type StrategyRow = Pick<z.infer<typeof StrategyCommon>, 'participant_id' | 'puzzle_id' | 'kind' | 'position' | 'attempt' | 'changes' | 'marks'> & Record<string, unknown>;

/** The columns of strategy.csv for the kinds of a study (a Nonogram study's are STRATEGY_COLUMNS). */
export function strategyColumns(kinds: readonly StrategyKind[]): string[] {
  const levels = (['nonogram', 'sudoku'] as const).filter((k) => kinds.includes(k)).flatMap((k) => STRATEGY_LEVELS[k].map(key));
  const unique = [...new Set(levels)];
  return [
    'participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'changes', 'marks',
    ...unique,
    ...unique.map((l) => `share_${l}`),
    ...(kinds.includes('nonogram') ? ['share_line_family'] : []),
    ...(kinds.includes('sudoku') ? ['share_singles'] : []),
    'mean_rung', 'backtracks',
    ...unique.map((l) => `time_${l}_s`),
    'first_row', 'first_col', 'first_reasoning', 'first_on_foothold', 'same_line_share', 'reading_order_share', 'foothold_early_share', 'foothold_board_share', 'line_order',
  ];
}

/** strategy.csv's columns in a Nonogram study. */
export const STRATEGY_COLUMNS: readonly string[] = strategyColumns(['nonogram']);

/** Each cell of a puzzle: on a foothold (see the essay above)? */
export function footholdCells(puzzle: SignalPuzzle): Uint8Array {
  const n = puzzle.width * puzzle.height;
  const out = new Uint8Array(n);
  if (puzzle.kind === 'sudoku') {
    const side = puzzle.width;
    const [br, bc] = puzzle.box ?? defaultBox(side);
    const givens = new Uint8Array(n);
    for (let i = 0; i < n; i++) givens[i] = DIGIT_SYMBOLS.indexOf(puzzle.givens?.[(i / side) | 0]?.[i % side] ?? '.') + 1;
    for (const i of singlesOnGivens(shapeOf(br, bc), givens)) out[i] = 1;
    return out;
  }
  const grid = createGrid(puzzle.width, puzzle.height, EMPTY);
  for (let r = 0; r < puzzle.height; r++) for (let c = 0; c < puzzle.width; c++) if (puzzle.solution[r]?.[c] === '#') grid.cells[r * puzzle.width + c] = FILLED;
  const clues = cluesOf(grid);
  const fixes = (clue: readonly number[], len: number) => clue.length === 0 || clue.reduce((s, b) => s + b, 0) + clue.length - 1 === len;
  const rows = clues.rows.map((c) => fixes(c, puzzle.width));
  const cols = clues.cols.map((c) => fixes(c, puzzle.height));
  for (let r = 0; r < puzzle.height; r++) for (let c = 0; c < puzzle.width; c++) if (rows[r] || cols[c]) out[r * puzzle.width + c] = 1;
  return out;
}

const footholds = new WeakMap<SignalPuzzle, { cells: Uint8Array; share: number }>();
function footholdsOf(puzzle: SignalPuzzle) {
  let f = footholds.get(puzzle);
  if (!f) {
    const cells = footholdCells(puzzle);
    footholds.set(puzzle, (f = { cells, share: cells.reduce((s, v) => s + v, 0) / cells.length }));
  }
  return f;
}

function emptyRow(a: { participant_id: string; puzzle_id: string; position: number; attempt: number }, puzzle: SignalPuzzle): StrategyRow {
  const kind: StrategyKind = puzzle.kind === 'sudoku' ? 'sudoku' : 'nonogram';
  const row: StrategyRow = { participant_id: a.participant_id, puzzle_id: a.puzzle_id, kind, position: a.position, attempt: a.attempt, changes: 0, marks: 0 };
  for (const l of STRATEGY_LEVELS[kind]) row[key(l)] = 0;
  for (const l of STRATEGY_LEVELS[kind]) row[`share_${key(l)}`] = null;
  row[kind === 'sudoku' ? 'share_singles' : 'share_line_family'] = null;
  row.mean_rung = null;
  row.backtracks = 0;
  for (const l of STRATEGY_LEVELS[kind]) row[`time_${key(l)}_s`] = 0;
  Object.assign(row, {
    first_row: null, first_col: null, first_reasoning: null, first_on_foothold: null, same_line_share: null, reading_order_share: null,
    foothold_early_share: null, foothold_board_share: footholdsOf(puzzle).share, line_order: null,
  });
  return row;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Fill an attempt's row from its trajectory rows (in order). */
function summarise(row: StrategyRow, rows: readonly TrajectoryRow[], puzzle: SignalPuzzle): void {
  const kind = row.kind;
  const levels = STRATEGY_LEVELS[kind];
  const feet = footholdsOf(puzzle).cells;
  const w = puzzle.width;
  const time = new Map<string, number>();
  let rungs = 0, rungCount = 0;
  let prev: TrajectoryRow | null = null;
  let pairs = 0, sameLine = 0, sameRow = 0, readingOrder = 0;
  const ownMarks: boolean[] = [];
  for (const r of rows) {
    row.changes++;
    if (r.backtrack) (row.backtracks as number)++;
    if (r.reasoning !== null) {
      const k = key(r.reasoning);
      row.marks++;
      (row[k] as number)++;
      time.set(k, (time.get(k) ?? 0) + (r.gap_ms ?? 0));
      if (r.reasoning !== 'guess') {
        rungs += levels.indexOf(r.reasoning) + 1;
        rungCount++;
      }
    }
    if (r.reasoning !== null && r.source !== 'system') {
      ownMarks.push(feet[r.row * w + r.col] === 1);
      if (prev) {
        pairs++;
        if (r.row === prev.row || r.col === prev.col) sameLine++;
        if (r.row === prev.row) sameRow++;
        if (r.row > prev.row || (r.row === prev.row && r.col > prev.col)) readingOrder++;
      }
      prev = r;
    }
    if (row.first_row === null && r.source !== 'system') {
      row.first_row = r.row;
      row.first_col = r.col;
      row.first_reasoning = r.reasoning;
      row.first_on_foothold = feet[r.row * w + r.col] === 1;
    }
  }
  row.same_line_share = pairs ? sameLine / pairs : null;
  row.reading_order_share = pairs ? readingOrder / pairs : null;
  const early = ownMarks.slice(0, Math.ceil(ownMarks.length / 4));
  const earlyShare = early.length ? early.filter(Boolean).length / early.length : null;
  row.foothold_early_share = earlyShare;
  if (ownMarks.length >= 4) {
    const rowMajor = readingOrder / pairs >= 0.75 && sameRow / pairs >= 0.5;
    const footholdDriven = earlyShare! >= 0.75 && earlyShare! > (row.foothold_board_share as number);
    row.line_order = rowMajor ? 'row-major' : footholdDriven ? 'foothold-driven' : 'scattered';
  }
  const m = row.marks;
  for (const l of levels) row[`share_${key(l)}`] = m ? (row[key(l)] as number) / m : null;
  const count = (ls: readonly string[]) => ls.reduce((s, l) => s + (row[key(l)] as number), 0);
  if (kind === 'sudoku') row.share_singles = m ? count(['naked-single', 'hidden-single']) / m : null;
  else row.share_line_family = m ? count(['overlap', 'line', 'two-lines']) / m : null;
  row.mean_rung = rungCount ? rungs / rungCount : null;
  for (const l of levels) row[`time_${key(l)}_s`] = round3((time.get(key(l)) ?? 0) / 1000);
}

/**
 * Each attempt's strategy row from trajectory rows (as sessionTrajectory gives them: an attempt's rows together, in
 * order): one row per attempt that has rows.
 */
export function attemptStrategies(rows: readonly TrajectoryRow[], puzzles: ReadonlyMap<string, SignalPuzzle>): StrategyRow[] {
  const out: StrategyRow[] = [];
  for (let from = 0; from < rows.length; ) {
    const first = rows[from];
    let to = from + 1;
    while (to < rows.length && rows[to].participant_id === first.participant_id && rows[to].attempt === first.attempt) to++;
    const puzzle = puzzles.get(first.puzzle_id);
    if (!puzzle) throw new Error(`puzzle '${first.puzzle_id}' is not in the puzzle set`);
    const row = emptyRow(first, puzzle);
    summarise(row, rows.slice(from, to), puzzle);
    out.push(row);
    from = to;
  }
  return out;
}

/**
 * One strategy row per attempt of a session (`attempts` in attempts.csv's order: their 1-based index is the
 * trajectory's `attempt`), an attempt without a change included (its counts 0, its shares empty).
 */
export function sessionStrategies(
  attempts: readonly { participant_id: string; puzzle_id: string; position: number }[],
  rows: readonly TrajectoryRow[],
  puzzles: ReadonlyMap<string, SignalPuzzle>,
): StrategyRow[] {
  const byAttempt = new Map<number, StrategyRow>();
  for (const s of attemptStrategies(rows, puzzles)) byAttempt.set(s.attempt, s);
  return attempts.map((a, k) => byAttempt.get(k + 1) ?? emptyRow({ ...a, attempt: k + 1 }, puzzles.get(a.puzzle_id)!));
}
