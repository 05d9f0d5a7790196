// The rules every fold over a session's log shares: the clock between records, board moves, the next step, errors and wrong cells, pauses, how a session ends.
/*
 * Resume (shared/study/progress.ts), the intake's progression (shared/study/progression.ts), the dashboard summary
 * (shared/study/summary.ts) and replay (client/src/dashboard/records.ts), and the analysis (shared/signals/) each fold
 * a session's records their own way, but where they measure the same thing they must get the same number: a rule
 * written twice drifts (the replay once showed pauses that attempts.csv did not count). So the rules live here, once.
 *
 * Time between two client records. A record carries two client clocks: `t_mono` (performance.now(), precise and immune
 * to wall-clock adjustments, but restarted by a page reload) and `t_wall` (Date.now(), continuous across reloads but
 * jumps when the system clock is set). The monotonic difference is used when it is not negative and agrees with the
 * wall-clock difference within CLOCK_AGREEMENT_MS; otherwise the wall-clock difference (never negative). Why not
 * "monotonic whenever it moves forward" (what the replay did): after a reload t_mono restarts near 0, and when the
 * new page has run longer than the old one had, the monotonic difference is positive but meaningless (it can even
 * hide a pause of minutes); the wall clock is the only witness across a reload, and within one page the two agree
 * (browsers coarsen both, far below a second), so the rule picks the precise clock exactly when it can be trusted.
 * What it cannot do: see a wall-clock jump and a reload at once (then the gap is the wall clock's, which may be off).
 * The server's own clock (`t_server`) is the receive time; it is not used between client records, since a participant
 * offline for a while sends a whole stretch at once.
 *
 * Board moves are the moves that can change the board (fill, cross, clear, stroke, reveal, undo, reset); hint,
 * submit and skip ask or end and leave it as it is. The next step after a `step_end` is its step + 1, and steps only
 * go forward (an old step ended again changes nothing). An error is the paper's: a fill or stroke turning a cell
 * filled where the solution is empty (each such cell of a stroke counts, filling the same cell again after clearing it
 * counts again; undo, reset and reveals never count). A wrong cell on a board is filled where the solution is empty or
 * crossed where it is filled. A pause is a gap between consecutive participant actions longer than the threshold
 * (strictly), with gaps taken at the cell level by default (a drag's cells carry their own times) and rounded to the
 * millisecond. A session ends early only at a `step_end` whose reason is `declined` or `screened_out` (the
 * progression's rule: the consent record alone ends nothing).
 */
import type { ClientEvent } from '../schema/event.ts';
import type { Move } from '../schema/move.ts';
import type { BoardReplay, BoardState } from '../game/board.ts';
import { EMPTY, FILLED } from '../nonogram/grid.ts';

/** How far the two client clocks may disagree before the monotonic one is distrusted (ms). */
export const CLOCK_AGREEMENT_MS = 1_000;

export interface Clocked {
  t_mono: number;
  t_wall: number;
}

/** Milliseconds from record a to record b on the client's clocks (monotonic when it agrees with the wall clock). */
export function elapsedMs(a: Clocked, b: Clocked): number {
  const mono = b.t_mono - a.t_mono;
  const wall = b.t_wall - a.t_wall;
  if (mono >= 0 && Math.abs(mono - wall) <= CLOCK_AGREEMENT_MS) return mono;
  return Math.max(0, wall);
}

/** Moves that can change the board; hint, submit and skip do not. */
export const BOARD_MOVES: ReadonlySet<Move['type']> = new Set(['fill', 'cross', 'clear', 'stroke', 'reveal', 'undo', 'reset', 'set_digit', 'pencil', 'reveal_digit']);

export const isBoardMove = (move: Move): boolean => BOARD_MOVES.has(move.type);

/** The cell a move names first (a stroke's first cell); null for moves that name none. Reveals are the server's, not a paint. */
export function firstCell(move: Move): [number, number] | null {
  switch (move.type) {
    case 'fill':
    case 'cross':
    case 'clear':
    case 'set_digit':
    case 'pencil':
      return [move.row, move.col];
    case 'stroke':
      return move.cells[0];
    default:
      return null;
  }
}

/** Every cell a move names (each cell of a stroke, a reveal's cell); none for moves that name no cell. */
export function namedCells(move: Move): [number, number][] {
  switch (move.type) {
    case 'fill':
    case 'cross':
    case 'clear':
    case 'reveal':
    case 'set_digit':
    case 'pencil':
    case 'reveal_digit':
      return [[move.row, move.col]];
    case 'stroke':
      return move.cells;
    default:
      return [];
  }
}

/** What the intake knows of a puzzle's board to judge a move: a Nonogram's size, or a Sudoku's side and givens. */
export type MoveBoard = { kind: 'nonogram'; width: number; height: number } | { kind: 'sudoku'; size: number; givens: readonly string[] };

const NONOGRAM_MOVES: ReadonlySet<Move['type']> = new Set(['fill', 'cross', 'stroke', 'reveal']);
const SUDOKU_MOVES: ReadonlySet<Move['type']> = new Set(['set_digit', 'pencil', 'reveal_digit']);

/**
 * Why a move cannot be one of this board's, or null when it can: a cell off the board (every kind), a move of another
 * kind's board (a fill on a Sudoku, a digit on a Nonogram), a Sudoku digit above the side, or a Sudoku move on a
 * given (the page never offers one: givens cannot change). The intake refuses such a move (shared/study/progression.ts),
 * so no fold ever sees it; the board models ignore them too, so a log written before this rule replays the same.
 */
export function moveOffBoard(move: Move, board: MoveBoard, puzzleId: string): string | null {
  const width = board.kind === 'nonogram' ? board.width : board.size;
  const height = board.kind === 'nonogram' ? board.height : board.size;
  const off = namedCells(move).find(([r, c]) => r >= height || c >= width);
  if (off) return `names row ${off[0] + 1}, column ${off[1] + 1}, off the ${width}x${height} board of puzzle '${puzzleId}'`;
  const foreign = board.kind === 'nonogram' ? SUDOKU_MOVES : NONOGRAM_MOVES;
  if (foreign.has(move.type)) return `is a '${move.type}' move, but puzzle '${puzzleId}' is a ${board.kind === 'nonogram' ? 'Nonogram' : 'Sudoku'}`;
  if (board.kind === 'sudoku' && (move.type === 'set_digit' || move.type === 'pencil' || move.type === 'reveal_digit' || move.type === 'clear')) {
    if ('digit' in move && move.digit > board.size) return `writes digit ${move.digit}, above ${board.size}, the largest digit of the ${board.size}x${board.size} board of puzzle '${puzzleId}'`;
    const given = board.givens[move.row]?.[move.col];
    if (given !== undefined && given !== '.') return `names row ${move.row + 1}, column ${move.col + 1}, a given of puzzle '${puzzleId}' (${given}), which cannot change`;
  }
  return null;
}

/** The step a session is on after record `e`, when it was on `step`: a step_end moves it past the step it ends. */
export function stepAfter(step: number, e: { type: string; step?: number }): number {
  return e.type === 'step_end' && typeof e.step === 'number' ? Math.max(step, e.step + 1) : step;
}

/** How a record ends a session early: a step_end declined or screened out (the progression's rule), else null. */
export function sessionEndOf(e: Pick<ClientEvent, 'type' | 'payload'>): 'declined' | 'screened_out' | null {
  if (e.type !== 'step_end') return null;
  const reason = (e.payload as { reason: string }).reason;
  return reason === 'declined' || reason === 'screened_out' ? reason : null;
}

/** Cells wrong against the solution: filled where it is empty, crossed where it is filled (by cell index). */
export function wrongCells(board: Pick<BoardState, 'grid'>, solution: readonly string[] | undefined): Set<number> {
  const wrong = new Set<number>();
  if (!solution) return wrong;
  const { width, height, cells } = board.grid;
  for (let r = 0; r < height; r++)
    for (let c = 0; c < width; c++) {
      const v = cells[r * width + c];
      const want = solution[r]?.[c] === '#';
      if ((v === FILLED && !want) || (v === EMPTY && want)) wrong.add(r * width + c);
    }
  return wrong;
}

/**
 * Cells a move turned filled (`filled`) and, among them, the errors: filled where the solution is empty. Only fills
 * and strokes paint on the participant's behalf; every other move (undo, reset, reveal) gives none.
 */
export function paintedCells(move: Move, before: BoardState, after: BoardState, solution: readonly string[]): { filled: number; errors: number[] } {
  const errors: number[] = [];
  let filled = 0;
  if (after === before || (move.type !== 'fill' && move.type !== 'stroke')) return { filled, errors };
  const a = after.grid.cells, b = before.grid.cells, w = after.grid.width;
  if (move.type === 'fill') {
    // A fill changes only its own cell (the board is unchanged when the cell is outside).
    const i = move.row * w + move.col;
    if (a[i] === FILLED && b[i] !== FILLED) {
      filled++;
      if (solution[move.row]?.[move.col] !== '#') errors.push(i);
    }
    return { filled, errors };
  }
  for (let i = 0; i < a.length; i++)
    if (a[i] === FILLED && b[i] !== FILLED) {
      filled++;
      if (solution[(i / w) | 0]?.[i % w] !== '#') errors.push(i);
    }
  return { filled, errors };
}

/**
 * paintedCells on a mutable replay (BoardReplay), right after it applied `move`: the same rule read off the cells the
 * move changed (a cell unchanged by the move is the same before and after, so it cannot have turned filled). The
 * errors may come in another order than paintedCells gives them (stroke order, not cell order); the set is the same.
 */
export function paintedCellsInReplay(move: Move, replay: BoardReplay, solution: readonly string[]): { filled: number; errors: number[] } {
  const errors: number[] = [];
  let filled = 0;
  if (move.type !== 'fill' && move.type !== 'stroke') return { filled, errors };
  const w = replay.width;
  for (let k = replay.from; k < replay.to; k++) {
    const i = replay.changed[k];
    if (replay.cells[i] === FILLED && replay.before[k] !== FILLED) {
      filled++;
      if (solution[(i / w) | 0]?.[i % w] !== '#') errors.push(i);
    }
  }
  return { filled, errors };
}

/** 'cell': a stroke with cell times gives one point per cell; 'action': one point per action at its event time. */
export type GapLevel = 'cell' | 'action';

/** A move record (client or logged): its clocks and its move. */
export type MoveRecord = Extract<ClientEvent, { type: 'move' }>;

/** One gap between consecutive points in time of an attempt's participant actions. */
export interface ActionGap {
  /** 1-based index of the action that ends the gap. */
  action: number;
  /** 0-based cell of the timed stroke that ends the gap (cell > 0: a gap inside the drag); null: a whole action. */
  cell: number | null;
  /** The gap in seconds, rounded to the millisecond (never negative). */
  seconds: number;
  /** Where the gap ends: the offset (ms, <= 0) of its point from its action's time stamp. */
  offsetMs: number;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The gaps between consecutive points in time of participant actions (in order; the caller leaves out the system's
 * reveals): every action is one point at its time stamp, except, at the cell level, a stroke whose cells carry
 * their own times (`cell_ms`), which gives one point per cell. `actions[k]` is the k+1-th action.
 */
export function actionGaps(actions: readonly MoveRecord[], level: GapLevel = 'cell'): ActionGap[] {
  const gaps: ActionGap[] = [];
  let prev: Clocked | null = null;
  let prevOffset = 0;
  actions.forEach((a, i) => {
    const move = a.payload.move;
    const offsets = level === 'cell' && move.type === 'stroke' && move.cell_ms && move.cell_ms.length === move.cells.length ? move.cell_ms : null;
    const points = offsets ? offsets.length : 1;
    for (let k = 0; k < points; k++) {
      const offset = offsets ? offsets[k] : 0;
      if (prev) {
        const ms = k === 0 ? elapsedMs(prev, a) + offset - prevOffset : offset - prevOffset;
        gaps.push({ action: i + 1, cell: offsets ? k : null, seconds: round3(Math.max(0, ms) / 1000), offsetMs: offset });
      }
      prev = a;
      prevOffset = offset;
    }
  });
  return gaps;
}

/** A gap is a pause when it is longer than the threshold (seconds; both as the attempt rows hold them). */
export const isPause = (gapSeconds: number, thresholdSeconds: number): boolean => gapSeconds > thresholdSeconds;
