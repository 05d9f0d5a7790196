// What each column of trajectories.csv means, in one sentence each: the codebook entries the exports carry (the raw
// zip's trajectories-codebook.csv, the psych-DS dataset's variableMeasured). docs/analysis.md says the same at length.
import { TRAJECTORY_COLUMNS } from './trajectory.ts';

export const TRAJECTORY_CODEBOOK: Record<(typeof TRAJECTORY_COLUMNS)[number], string> = {
  participant_id: 'The participant: their session id (random, not linked to identity)',
  puzzle_id: 'The puzzle of the attempt',
  kind: 'The puzzle kind: nonogram or sudoku',
  position: 'Position of the study puzzle in the participant sequence (1, 2, 3, ...)',
  attempt: '1-based attempt of the session, in the order of attempts.csv',
  change: '1-based cell change of the attempt: the rows of one attempt are in this order',
  move: '1-based move record of the attempt (every move counts: reveals, hints and submissions too)',
  index: "1-based participant action of the attempt (gaps.csv's index); empty for a hint's reveal",
  action: "What changed the cell: fill, cross, clear, stroke, undo, reset, reveal (a hint's cell, the system's); a Sudoku's set_digit, clear, undo, reset, reveal_digit (pencil marks give no row)",
  source: 'Input source: mouse, touch, keyboard, system (reveals)',
  stroke: "For a stroke: its 1-based number among the attempt's strokes; else empty",
  stroke_cell: 'For a stroke: the 0-based cell of the stroke that changed; else empty',
  t_ms: "Milliseconds from the step's start to the change (the log's clock rule; a timed stroke's cell offset added)",
  gap_ms: "The pause rule's gap ending at this change, in ms (gaps.csv's gap_s); empty for the first action and reveals",
  row: '0-based row of the cell',
  col: '0-based column of the cell',
  before: "The cell's state before the change: unknown, filled, crossed (a Sudoku: its digit, or unknown)",
  after: "The cell's state after the change: unknown, filled, crossed (a Sudoku: its digit, or unknown)",
  correct: "true when the new state agrees with the solution (filled where filled, crossed where empty; a Sudoku's digit is the solution's)",
  error: "true for an error by the paper's rule: a fill or stroke filling a cell the solution has empty (a Sudoku: a set_digit writing another digit than the solution's)",
  board_right: "Share of the board's cells marked as the solution has them, right after the change (0 to 1; a Sudoku: of its open cells)",
  wrong_cells: "The board's wrong cells after the change (filled where empty, crossed where filled; a Sudoku: another digit than the solution's)",
  reasoning: "The weakest reasoning forcing the change on the board just before it: overlap, line, two-lines, probing, guess (a Sudoku: the technique ladder naked-single, hidden-single, pointing, claiming, naked-pair, hidden-pair, naked-triple, hidden-triple, x-wing, swordfish, xy-wing, or guess); empty for a change back to unknown",
  backtrack: 'true when the cell takes a state it already held earlier in the attempt (unknown included)',
};
