// One row of trajectories.csv (a cell change of an attempt) and its columns: a module of its own so that each kind's
// row maker (trajectory.ts for Nonograms, sudokuTrajectory.ts) takes the type without importing the other.
import type { InputSource, Move, PaintState } from '../schema/move.ts';
import type { MoveEvent, SignalPuzzle } from './attempts.ts';
import type { SudokuReasoningLabel } from '../sudoku/reasoning.ts';
import type { ReasoningLabel } from '../nonogram/reasoning.ts';

export type TrajectoryAction = Exclude<Move['type'], 'hint' | 'submit' | 'skip' | 'pencil'>;

/** A reasoning label: a Nonogram's (reasoning.ts) or a Sudoku's (the technique ladder, sudoku/reasoning.ts). */
export type TrajectoryLabel = ReasoningLabel | SudokuReasoningLabel;

/** One cell change of an attempt. */
export interface TrajectoryRow {
  participant_id: string;
  puzzle_id: string;
  kind: 'nonogram' | 'sudoku';
  position: number;
  /** 1-based attempt of the session (the order of its rows in attempts.csv). */
  attempt: number;
  /** 1-based change of the attempt. */
  change: number;
  /** 1-based move record of the attempt (every move: the system's reveals, hints and submissions too). */
  move: number;
  /** 1-based participant action (gaps.csv's index); null for the system's reveals. */
  index: number | null;
  action: TrajectoryAction;
  source: InputSource;
  /** 1-based stroke of the attempt and the 0-based cell of the stroke; null for other moves. */
  stroke: number | null;
  stroke_cell: number | null;
  /** Milliseconds since the step started, and since the previous participant action (the pause rule's gap; null for the first and for reveals). */
  t_ms: number;
  gap_ms: number | null;
  row: number;
  col: number;
  /** A Nonogram cell's state (PaintState); a Sudoku cell's digit symbol, or unknown when it holds none. */
  before: PaintState | string;
  after: PaintState | string;
  /** The new state agrees with the solution (filled where it is filled, crossed where it is empty; a Sudoku's digit is the solution's); unknown never does. */
  correct: boolean;
  /** An error by the paper's rule: a fill or stroke turning the cell filled where the solution is empty (a Sudoku: a set_digit writing a digit the solution does not have there). */
  error: boolean;
  /** Share of the board's cells right after the change (marked as the solution has them; a Sudoku: of its open cells, holding the solution's digit), and the wrong cells. */
  board_right: number;
  wrong_cells: number;
  /** The weakest reasoning forcing the change on the board before it; null for a change back to unknown. */
  reasoning: TrajectoryLabel | null;
  backtrack: boolean;
}

export const TRAJECTORY_COLUMNS = [
  'participant_id', 'puzzle_id', 'kind', 'position', 'attempt', 'change', 'move', 'index', 'action', 'source', 'stroke', 'stroke_cell',
  't_ms', 'gap_ms', 'row', 'col', 'before', 'after', 'correct', 'error', 'board_right', 'wrong_cells', 'reasoning', 'backtrack',
] as const satisfies readonly (keyof TrajectoryRow)[];

/** One attempt as a kind's row maker takes it: whose, which puzzle, where, its start, its moves and the pause rule's gaps. */
export interface AttemptFrame {
  session: string;
  puzzle: SignalPuzzle;
  position: number;
  /** 1-based attempt of the session. */
  attempt: number;
  start: { t_mono: number; t_wall: number };
  /** The attempt's move records up to its end. */
  moves: readonly MoveEvent[];
  /** Milliseconds of each action's gap, keyed `${action}:${cell}` (cell -1 for the whole action). */
  gaps: ReadonlyMap<string, number>;
}
