// What the dashboard reads out of a session's logged records: attempt timelines for replay, the live mirror, answers.
//
// A replay is the attempt's moves pushed through the same applyMove the participant's page used, so the board at
// any moment is exactly the board they saw. Time runs on the client's monotonic clock (precise, immune to wall-clock
// jumps); a reload mid-attempt restarts that clock, and there the wall-clock difference bridges the gap. Pauses are
// the gaps between consecutive actions (and from the attempt's start to the first one); errors are judged against
// the solution, which the dashboard may see because it is behind the experimenter login.
import { applyMove, initialBoard, type BoardState } from '../../../shared/game/board.ts';
import { Move } from '../../../shared/schema/move.ts';
import { EMPTY, FILLED } from '../../../shared/nonogram/grid.ts';
import { showsBoard } from '../../../shared/study/phases/index.ts';

export interface LogRecord {
  origin?: string;
  type?: string;
  seq?: number;
  step?: number;
  phase?: string;
  puzzle_id?: string | null;
  position?: number | null;
  t_mono?: number;
  t_wall?: number;
  t_server?: number;
  payload?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface PuzzleShape {
  id: string;
  width: number;
  height: number;
  rows: number[][];
  cols: number[][];
  solution?: string[];
}

export interface Frame {
  /** Milliseconds since the attempt began. */
  t: number;
  seq: number | null;
  move: Move;
  /** The board after this move. */
  board: BoardState;
  /** Cells wrong against the solution after this move. */
  wrong: number;
  /** This move made the board more wrong than before. */
  introduced_error: boolean;
}

export interface Mark {
  t: number;
  kind: 'submit_wrong' | 'submit_solved' | 'hint' | 'hidden' | 'visible' | 'skip';
  label: string;
}

export interface AttemptTimeline {
  step: number;
  puzzle_id: string;
  position: number | null;
  outcome: string | null;
  duration: number;
  frames: Frame[];
  marks: Mark[];
}

export interface Pause {
  from: number;
  to: number;
  duration: number;
}

/** Cells wrong against the solution: filled where it is empty, crossed where it is filled (by cell index). */
export function wrongCells(board: BoardState, solution: readonly string[] | undefined): Set<number> {
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

/** A clock over records that keeps going across a reload (monotonic time restarts, wall time bridges). */
function elapsedClock() {
  let last: LogRecord | null = null;
  let t = 0;
  return (r: LogRecord): number => {
    if (last) {
      const dm = (r.t_mono ?? 0) - (last.t_mono ?? 0);
      const dw = (r.t_wall ?? 0) - (last.t_wall ?? 0);
      t += dm >= 0 ? dm : Math.max(0, dw);
    }
    last = r;
    return t;
  };
}

/** Moves that change the board (hint, submit and skip do not). */
const BOARD_MOVES = new Set(['fill', 'cross', 'clear', 'stroke', 'reveal', 'undo', 'reset']);

const client = (records: readonly LogRecord[]) => records.filter((r) => r.origin === 'client');

/** The steps of a session that were puzzles (attempts), in order: step index, puzzle and how it ended. */
export function attemptsOf(records: readonly LogRecord[]): { step: number; puzzle_id: string; position: number | null; kind: string; outcome: string | null }[] {
  const out = new Map<number, { step: number; puzzle_id: string; position: number | null; kind: string; outcome: string | null }>();
  for (const r of client(records)) {
    if (r.type === 'step_start' && typeof r.step === 'number' && r.puzzle_id && showsBoard(String(r.payload?.kind)))
      if (!out.has(r.step)) out.set(r.step, { step: r.step, puzzle_id: r.puzzle_id, position: r.position ?? null, kind: String(r.payload?.kind), outcome: null });
    if (r.type === 'step_end' && typeof r.step === 'number' && out.has(r.step)) out.get(r.step)!.outcome = String(r.payload?.reason ?? '');
  }
  return [...out.values()];
}

/** Build the replay of one attempt (one step) of a session. */
export function attemptTimeline(records: readonly LogRecord[], step: number, puzzle: PuzzleShape): AttemptTimeline {
  const clock = elapsedClock();
  let board = initialBoard(puzzle.width, puzzle.height);
  let wrong = 0;
  const frames: Frame[] = [];
  const marks: Mark[] = [];
  let started = false;
  let outcome: string | null = null;
  let t = 0;
  let position: number | null = null;
  let lastClientT = 0;
  for (const r of records) {
    if (r.origin === 'server') {
      // Server records carry no client time: place them at the latest client moment.
      if (!started || outcome !== null) continue;
      if (r.type === 'check' && r.payload?.puzzle_id === puzzle.id)
        marks.push(r.payload?.solved ? { t: lastClientT, kind: 'submit_solved', label: 'solved' } : { t: lastClientT, kind: 'submit_wrong', label: `not solved (${String(r.payload?.wrong_cells)} wrong)` });
      if (r.type === 'hint' && r.payload?.puzzle_id === puzzle.id) marks.push({ t: lastClientT, kind: 'hint', label: `hint: ${String(r.payload?.reasoning ?? '')}` });
      continue;
    }
    if (r.step !== step) continue;
    if (!started && r.type !== 'step_start') clock(r); // records before the start still set the clock's origin
    if (r.type === 'step_start' && !started) {
      started = true;
      position = r.position ?? null;
    }
    if (!started) continue;
    t = clock(r);
    lastClientT = t;
    if (r.type === 'move') {
      const parsed = Move.safeParse(r.payload?.move);
      if (!parsed.success) continue;
      const move = parsed.data;
      board = applyMove(board, move);
      const w = wrongCells(board, puzzle.solution).size;
      frames.push({ t, seq: r.seq ?? null, move, board, wrong: w, introduced_error: w > wrong });
      wrong = w;
      if (move.type === 'skip') marks.push({ t, kind: 'skip', label: 'skipped' });
    } else if (r.type === 'visibility') {
      marks.push({ t, kind: r.payload?.state === 'hidden' ? 'hidden' : 'visible', label: `page ${String(r.payload?.state)}` });
    } else if (r.type === 'step_end') {
      outcome = String(r.payload?.reason ?? '');
      break;
    }
  }
  return { step, puzzle_id: puzzle.id, position, outcome, duration: t, frames, marks };
}

/** Index of the frame showing at time t (-1: the empty board before the first move). */
export function frameAt(timeline: AttemptTimeline, t: number): number {
  let lo = 0;
  let hi = timeline.frames.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (timeline.frames[mid].t <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Gaps between consecutive actions (from the attempt's start) of at least `thresholdMs`. */
export function longPauses(timeline: AttemptTimeline, thresholdMs: number): Pause[] {
  const pauses: Pause[] = [];
  let prev = 0;
  for (const f of timeline.frames) {
    if (f.t - prev >= thresholdMs) pauses.push({ from: prev, to: f.t, duration: f.t - prev });
    prev = f.t;
  }
  return pauses;
}

/** The live mirror: the board of the step the participant is on, rebuilt record by record with applyMove. */
export interface Mirror {
  step: number | null;
  puzzle_id: string | null;
  board: BoardState | null;
  /** Board moves in the current step. */
  moves: number;
  last_seq: number;
}

export const emptyMirror: Mirror = { step: null, puzzle_id: null, board: null, moves: 0, last_seq: 0 };

export function mirrorRecords(mirror: Mirror, records: readonly LogRecord[], puzzleOf: (id: string) => PuzzleShape | undefined): Mirror {
  let m = mirror;
  for (const r of records) {
    if (r.origin !== 'client' || typeof r.seq !== 'number' || r.seq <= m.last_seq) continue;
    m = { ...m, last_seq: r.seq };
    if (r.type === 'step_start' && r.step !== m.step) {
      const p = r.puzzle_id && showsBoard(String(r.payload?.kind)) ? puzzleOf(r.puzzle_id) : undefined;
      m = { ...m, step: r.step ?? null, puzzle_id: p ? p.id : null, board: p ? initialBoard(p.width, p.height) : null, moves: 0 };
    } else if (r.type === 'move' && r.step === m.step && m.board) {
      const parsed = Move.safeParse(r.payload?.move);
      if (parsed.success) m = { ...m, board: applyMove(m.board!, parsed.data), moves: m.moves + (BOARD_MOVES.has(parsed.data.type) ? 1 : 0) };
    }
  }
  return m;
}

export interface Answer {
  step: number | null;
  phase: string;
  source: string;
  item: string;
  value: string;
}

function show(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join('; ');
  return String(value);
}

/** Every survey answer and rating the participant gave, as text (rendered as text, never as HTML). */
export function answersOf(records: readonly LogRecord[]): Answer[] {
  const out: Answer[] = [];
  for (const r of client(records)) {
    const base = { step: r.step ?? null, phase: r.phase ?? '' };
    if (r.type === 'survey_submit') {
      const answers = (r.payload?.answers ?? {}) as Record<string, unknown>;
      for (const [item, value] of Object.entries(answers)) out.push({ ...base, source: String(r.payload?.survey_id ?? ''), item, value: show(value) });
    } else if (r.type === 'rating') {
      const at = r.puzzle_id ? `rating of ${r.puzzle_id}` : 'rating';
      out.push({ ...base, source: at, item: 'difficulty', value: show(r.payload?.difficulty) });
      out.push({ ...base, source: at, item: 'guessing', value: show(r.payload?.guessing) });
    } else if (r.type === 'rating_revise') {
      out.push({ ...base, source: `revised rating of ${String(r.payload?.rated_puzzle_id)}`, item: 'difficulty', value: `${show(r.payload?.from)} → ${show(r.payload?.to)}` });
    }
  }
  return out;
}
