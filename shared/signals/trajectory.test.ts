// Trajectories on a hand-made log: every row, label by label, as worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import { sessionFromRecords } from './session.ts';
import { sessionSignals, type SignalPuzzle } from './attempts.ts';
import { sessionTrajectory, TRAJECTORY_COLUMNS, type TrajectoryRow } from './trajectory.ts';
import { attemptStrategies, STRATEGY_COLUMNS, StrategyRow } from './strategy.ts';

const SID = 'sT';
const T0 = 1_780_000_000_000;
// P, 3x3: rows [2] [1] [3], columns [1,1] [3] [1]. On an empty line, [1,1] and [3] fix their whole column and [2]
// its middle cell, so every cell but (0,2) and (1,2) is forced by one clue alone (overlap).
const P: SignalPuzzle = { id: 'p3', width: 3, height: 3, solution: ['##.', '.#.', '###'] };
// S, 4x4: rows [1,1] [2] [2] [2], columns [1,1] [2] [2] [2]. No clue forces anything on an empty line and propagation
// stalls on the empty board.
const S: SignalPuzzle = { id: 's4', width: 4, height: 4, solution: ['#..#', '..##', '.##.', '##..'] };
// A, 2x2: rows [1] [1], columns [1] [1]: two solutions (the diagonals), so the first mark is forced by nothing.
const A: SignalPuzzle = { id: 'a2', width: 2, height: 2, solution: ['#.', '.#'] };
const puzzles = new Map([P, S, A].map((p) => [p.id, p]));

function sessionLog() {
  const records: object[] = [];
  let seq = 0;
  const server = (type: string, payload: object, t: number) =>
    records.push({ type, session_id: SID, payload, origin: 'server', t_server: T0 + t, config_hash: 'h', app_version: '0.1.0' });
  const client = (type: string, payload: object, at: { step: number; puzzle_id: string | null; position: number | null; t: number; source?: string }) =>
    records.push({
      session_id: SID, seq: ++seq, step: at.step, phase: 'puzzles', puzzle_id: at.puzzle_id, position: at.position, t_mono: at.t, t_wall: T0 + at.t,
      source: at.source ?? 'mouse', type, payload, origin: 'client', t_server: T0 + at.t + 50, config_hash: 'h', app_version: '0.1.0',
    });
  const move = (m: object, at: { step: number; puzzle_id: string; position: number; t: number; source?: string }) => client('move', { move: m }, at);
  server('session_start', { mode: 'general', sequence: ['p3', 's4', 'a2'], sequence_id: 1, round: 1 }, 0);
  const p = { step: 3, puzzle_id: 'p3', position: 1 };
  client('step_start', { kind: 'puzzle' }, { ...p, t: 10_000 });
  move({ type: 'cross', row: 0, col: 2 }, { ...p, t: 12_000 });
  move({ type: 'stroke', state: 'filled', cells: [[2, 0], [2, 1], [2, 2]], cell_ms: [-300, -150, 0] }, { ...p, t: 12_500 });
  move({ type: 'fill', row: 1, col: 0 }, { ...p, t: 13_000, source: 'keyboard' });
  move({ type: 'undo' }, { ...p, t: 13_400 });
  move({ type: 'hint' }, { ...p, t: 14_000 });
  server('hint', { puzzle_id: 'p3', row: 0, col: 0, kind: 'cell', reasoning: 'overlap' }, 14_050);
  client('hint_shown', { row: 0, col: 0, explanation: 'x' }, { ...p, t: 14_100 });
  move({ type: 'reveal', row: 0, col: 0, state: 'filled' }, { ...p, t: 14_100, source: 'system' });
  move({ type: 'fill', row: 0, col: 1 }, { ...p, t: 15_000 });
  move({ type: 'cross', row: 1, col: 2 }, { ...p, t: 16_000 });
  move({ type: 'fill', row: 1, col: 1 }, { ...p, t: 16_500 });
  move({ type: 'cross', row: 1, col: 0 }, { ...p, t: 17_000 });
  move({ type: 'cross', row: 1, col: 0 }, { ...p, t: 17_500 }); // toggles it off
  move({ type: 'cross', row: 1, col: 0 }, { ...p, t: 18_000 });
  move({ type: 'submit' }, { ...p, t: 18_500 });
  server('check', { puzzle_id: 'p3', position: 1, solved: true, wrong_cells: 0 }, 18_550);
  client('submit_result', { solved: true }, { ...p, t: 18_600 });
  client('step_end', { kind: 'puzzle', reason: 'solved' }, { ...p, t: 18_600 });
  const s = { step: 4, puzzle_id: 's4', position: 2 };
  client('step_start', { kind: 'puzzle' }, { ...s, t: 30_000 });
  move({ type: 'fill', row: 0, col: 0 }, { ...s, t: 31_000 });
  move({ type: 'fill', row: 3, col: 3 }, { ...s, t: 32_000 });
  move({ type: 'cross', row: 3, col: 3 }, { ...s, t: 32_500 });
  move({ type: 'skip' }, { ...s, t: 34_000 });
  move({ type: 'fill', row: 1, col: 1 }, { ...s, t: 34_100 }); // after the skip: not part of the attempt
  client('step_end', { kind: 'puzzle', reason: 'skipped' }, { ...s, t: 34_200 });
  const a = { step: 5, puzzle_id: 'a2', position: 3 };
  client('step_start', { kind: 'puzzle' }, { ...a, t: 50_000 });
  move({ type: 'fill', row: 0, col: 0 }, { ...a, t: 51_000, source: 'touch' });
  move({ type: 'cross', row: 0, col: 1 }, { ...a, t: 51_800, source: 'touch' });
  return sessionFromRecords(records);
}

type Hand = [number, number, number | null, TrajectoryRow['action'], string, number | null, number | null, number, number | null, number, number, string, string, boolean, boolean, number, number, string | null, boolean];
// change, move, index, action, source, stroke, stroke_cell, t_ms, gap_ms, row, col, before, after, correct, error, board_right, wrong_cells, reasoning, backtrack
const HAND: Record<string, Hand[]> = {
  p3: [
    // (0,2) crossed on the empty board: neither its row [2] nor its column [1] decides it, alone or with the (no) marks;
    // propagation does: column [1,1] fills (0,0), column [3] fills (0,1), then row [2] is (0,0)-(0,1) and (0,2) empty.
    [1, 1, 1, 'cross', 'mouse', null, null, 2000, null, 0, 2, 'unknown', 'crossed', true, false, 1 / 9, 0, 'two-lines', false],
    // row [3] fills itself: overlap; the drag's cells at 12.2 s, 12.35 s, 12.5 s (gaps 200, 150, 150 ms)
    [2, 2, 2, 'stroke', 'mouse', 1, 0, 2200, 200, 2, 0, 'unknown', 'filled', true, false, 2 / 9, 0, 'overlap', false],
    [3, 2, 2, 'stroke', 'mouse', 1, 1, 2350, 150, 2, 1, 'unknown', 'filled', true, false, 3 / 9, 0, 'overlap', false],
    [4, 2, 2, 'stroke', 'mouse', 1, 2, 2500, 150, 2, 2, 'unknown', 'filled', true, false, 4 / 9, 0, 'overlap', false],
    // (1,0) filled: column [1,1] forces it empty (overlap of the other value), row [1] leaves it open: not forced, an error
    [5, 3, 3, 'fill', 'keyboard', null, null, 3000, 500, 1, 0, 'unknown', 'filled', false, true, 4 / 9, 1, 'guess', false],
    // undone: back to unknown, backtracking, no label
    [6, 4, 4, 'undo', 'mouse', null, null, 3400, 400, 1, 0, 'filled', 'unknown', false, false, 4 / 9, 0, null, true],
    // the hint (move 5, action 5) changes nothing; its reveal is the system's: no action index, no gap
    [7, 6, null, 'reveal', 'system', null, null, 4100, null, 0, 0, 'unknown', 'filled', true, false, 5 / 9, 0, 'overlap', false],
    // action 6, 1 s after the hint press (action 5)
    [8, 7, 6, 'fill', 'mouse', null, null, 5000, 1000, 0, 1, 'unknown', 'filled', true, false, 6 / 9, 0, 'overlap', false],
    // (1,2): row [1] is still blank; column [1] with (0,2) crossed and (2,2) filled puts its block at (2,2): line
    [9, 8, 7, 'cross', 'mouse', null, null, 6000, 1000, 1, 2, 'unknown', 'crossed', true, false, 7 / 9, 0, 'line', false],
    [10, 9, 8, 'fill', 'mouse', null, null, 6500, 500, 1, 1, 'unknown', 'filled', true, false, 8 / 9, 0, 'overlap', false],
    [11, 10, 9, 'cross', 'mouse', null, null, 7000, 500, 1, 0, 'unknown', 'crossed', true, false, 9 / 9, 0, 'overlap', false],
    // crossing it again toggles it off (backtracking), and a third time crosses it again: a state it held, backtracking
    [12, 11, 10, 'cross', 'mouse', null, null, 7500, 500, 1, 0, 'crossed', 'unknown', false, false, 8 / 9, 0, null, true],
    [13, 12, 11, 'cross', 'mouse', null, null, 8000, 500, 1, 0, 'unknown', 'crossed', true, false, 9 / 9, 0, 'overlap', true],
  ],
  s4: [
    // (0,0) filled on the empty board: nothing forces it by lines, but empty it contradicts: row [1,1] is then (0,1) and
    // (0,3), columns [2] carry both down to row 1, and row [2] cannot hold (1,1) and (1,3): probing
    [1, 1, 1, 'fill', 'mouse', null, null, 1000, null, 0, 0, 'unknown', 'filled', true, false, 1 / 16, 0, 'probing', false],
    // (3,3) filled: propagation from (0,0) forces it empty ((1,0) empty, (1,2) and (2,1) filled, (3,2) empty, row 3 at
    // its left): against the board's logic, a guess, and an error
    [2, 2, 2, 'fill', 'mouse', null, null, 2000, 1000, 3, 3, 'unknown', 'filled', false, true, 1 / 16, 1, 'guess', false],
    // flipped to crossed: with its own mark set aside, the same propagation forces it empty; its row and column alone do not
    [3, 3, 3, 'cross', 'mouse', null, null, 2500, 500, 3, 3, 'filled', 'crossed', true, false, 2 / 16, 0, 'two-lines', false],
  ],
  a2: [
    // both diagonals solve it: neither value of (0,0) contradicts anything
    [1, 1, 1, 'fill', 'touch', null, null, 1000, null, 0, 0, 'unknown', 'filled', true, false, 1 / 4, 0, 'guess', false],
    [2, 2, 2, 'cross', 'touch', null, null, 1800, 800, 0, 1, 'unknown', 'crossed', true, false, 2 / 4, 0, 'line', false],
  ],
};
const ATTEMPT = { p3: [1, 1], s4: [2, 2], a2: [3, 3] } as const; // attempt, position

describe('the trajectory of a hand-made log', () => {
  const log = sessionLog();
  const rows = sessionTrajectory(log, puzzles);

  it('equals the hand-computed table, row by row and label by label', () => {
    const expected: TrajectoryRow[] = Object.entries(HAND).flatMap(([puzzle, list]) =>
      list.map(([change, move, index, action, source, stroke, stroke_cell, t_ms, gap_ms, row, col, before, after, correct, error, board_right, wrong_cells, reasoning, backtrack]) => ({
        participant_id: SID, puzzle_id: puzzle, kind: 'nonogram', position: ATTEMPT[puzzle as keyof typeof ATTEMPT][1], attempt: ATTEMPT[puzzle as keyof typeof ATTEMPT][0],
        change, move, index, action, source, stroke, stroke_cell, t_ms, gap_ms, row, col, before, after, correct, error, board_right, wrong_cells, reasoning, backtrack,
      }) as TrajectoryRow),
    );
    expect(rows).toEqual(expected);
    for (const r of rows) expect(Object.keys(r)).toEqual([...TRAJECTORY_COLUMNS]);
  });

  it("agrees with the attempt rows: errors, final wrong cells, and the gaps' numbers", () => {
    const { attempts, gaps } = sessionSignals(log, puzzles);
    expect(attempts.map((a) => a.puzzle_id)).toEqual(['p3', 's4', 'a2']);
    for (const a of attempts) {
      const mine = rows.filter((r) => r.puzzle_id === a.puzzle_id);
      expect(mine.filter((r) => r.error).length, a.puzzle_id).toBe(a.errors);
      expect(mine.at(-1)!.wrong_cells, a.puzzle_id).toBe(a.final_wrong_cells);
    }
    for (const r of rows) {
      if (r.gap_ms === null) continue;
      const g = gaps.find((x) => x.puzzle_id === r.puzzle_id && x.index === r.index && (x.cell ?? null) === (r.action === 'stroke' ? r.stroke_cell : null));
      expect(g?.gap_s, `change ${r.change} of ${r.puzzle_id}`).toBe(r.gap_ms / 1000);
    }
  });

  it('keeps one puzzle when asked, with the attempt numbers of the whole session', () => {
    const only = sessionTrajectory(log, puzzles, { puzzleId: 's4' });
    expect(only).toEqual(rows.filter((r) => r.puzzle_id === 's4'));
    expect(only.every((r) => r.attempt === 2)).toBe(true);
  });

  it('at the action level a timed stroke is one point in time: its cells share the action gap', () => {
    const stroke = sessionTrajectory(log, puzzles, { gapLevel: 'action' }).filter((r) => r.action === 'stroke');
    expect(stroke.map((r) => [r.t_ms, r.gap_ms])).toEqual([[2200, 500], [2350, 500], [2500, 500]]);
  });

  it("summarises each attempt's strategy from the table: counts and shares per label, backtracks, time per level, the first change", () => {
    const base = { participant_id: SID, kind: 'nonogram' as const };
    const expected: StrategyRow[] = [
      // p3: 13 changes, 11 of them marks: 8 overlap, 1 line (change 9), 1 two-lines (change 1), 1 guess (change 5); changes
      // 6, 12, 13 backtrack; the overlap marks' gaps 200+150+150+1000+500+500+500 ms (the reveal has none)
      {
        ...base, puzzle_id: 'p3', position: 1, attempt: 1, changes: 13, marks: 11, overlap: 8, line: 1, two_lines: 1, probing: 0, guess: 1,
        share_overlap: 8 / 11, share_line: 1 / 11, share_two_lines: 1 / 11, share_probing: 0, share_guess: 1 / 11, share_line_family: 10 / 11, mean_rung: 13 / 10, backtracks: 3,
        time_overlap_s: 3, time_line_s: 1, time_two_lines_s: 0, time_probing_s: 0, time_guess_s: 0.5,
        // (0,2): row [2] and column [1] of 3 cells are not footholds
        first_row: 0, first_col: 2, first_reasoning: 'two-lines', first_on_foothold: false,
        // the participant's marks (the reveal left out): (0,2) (2,0) (2,1) (2,2) (1,0) (0,1) (1,2) (1,1) (1,0) (1,0), 9 pairs;
        // sharing a line: (2,0)-(2,1), (2,1)-(2,2), (1,2)-(1,1), (1,1)-(1,0), (1,0)-(1,0); later in reading order:
        // (0,2)-(2,0), (2,0)-(2,1), (2,1)-(2,2), (0,1)-(1,2)
        same_line_share: 5 / 9, reading_order_share: 4 / 9,
        // footholds: row 2 [3], column 0 [1 1] and column 1 [3] fill their lines exactly: 7 of the 9 cells; the first
        // ceil(10 / 4) = 3 marks (0,2) (2,0) (2,1): two on a foothold line; neither a sweep (4/9 forward) nor 3/4 early
        foothold_early_share: 2 / 3, foothold_board_share: 7 / 9, line_order: 'scattered',
      },
      {
        ...base, puzzle_id: 's4', position: 2, attempt: 2, changes: 3, marks: 3, overlap: 0, line: 0, two_lines: 1, probing: 1, guess: 1,
        share_overlap: 0, share_line: 0, share_two_lines: 1 / 3, share_probing: 1 / 3, share_guess: 1 / 3, share_line_family: 1 / 3, mean_rung: 7 / 2, backtracks: 0,
        time_overlap_s: 0, time_line_s: 0, time_two_lines_s: 0.5, time_probing_s: 0, time_guess_s: 1,
        first_row: 0, first_col: 0, first_reasoning: 'probing', first_on_foothold: false,
        // (0,0) (3,3) (3,3): the second pair shares its lines, the first comes later in reading order
        same_line_share: 1 / 2, reading_order_share: 1 / 2,
        // no line of s4 is a foothold; three marks are too few for an order
        foothold_early_share: 0, foothold_board_share: 0, line_order: null,
      },
      {
        ...base, puzzle_id: 'a2', position: 3, attempt: 3, changes: 2, marks: 2, overlap: 0, line: 1, two_lines: 0, probing: 0, guess: 1,
        share_overlap: 0, share_line: 0.5, share_two_lines: 0, share_probing: 0, share_guess: 0.5, share_line_family: 0.5, mean_rung: 2, backtracks: 0,
        time_overlap_s: 0, time_line_s: 0.8, time_two_lines_s: 0, time_probing_s: 0, time_guess_s: 0,
        first_row: 0, first_col: 0, first_reasoning: 'guess', first_on_foothold: false,
        same_line_share: 1, reading_order_share: 1,
        foothold_early_share: 0, foothold_board_share: 0, line_order: null,
      },
    ];
    const strategies = attemptStrategies(rows, puzzles);
    expect(strategies).toEqual(expected);
    for (const r of strategies) expect(Object.keys(r).sort()).toEqual([...STRATEGY_COLUMNS].sort());
    for (const r of strategies) expect(StrategyRow.safeParse(r).error).toBeUndefined();
    // from the stroke on, p3's first change is (2,0): row [3] fills its row exactly, a foothold
    const fromStroke = attemptStrategies(rows.filter((r) => r.puzzle_id === 'p3' && r.change >= 2), puzzles)[0];
    expect([fromStroke.first_row, fromStroke.first_col, fromStroke.first_reasoning, fromStroke.first_on_foothold]).toEqual([2, 0, 'overlap', true]);
    // a reveal is the system's, never the participant's first change: from change 7 (the reveal of (0,0)) it is (0,1)
    const fromReveal = attemptStrategies(rows.filter((r) => r.puzzle_id === 'p3' && r.change >= 7), puzzles)[0];
    expect([fromReveal.first_row, fromReveal.first_col, fromReveal.first_on_foothold]).toEqual([0, 1, true]);
  });

  it('a second hand-made log: strokes with repeated and outside cells, a flip, a clear, a crossed reveal, a reset', () => {
    const records: object[] = [];
    let seq = 0;
    const at = { step: 1, puzzle_id: 'p3', position: 1 };
    const client = (type: string, payload: object, t: number, source = 'mouse') =>
      records.push({ session_id: 'sU', seq: ++seq, ...at, phase: 'puzzles', t_mono: t, t_wall: T0 + t, source, type, payload, origin: 'client', t_server: T0 + t, config_hash: 'h', app_version: '0' });
    client('step_start', { kind: 'puzzle' }, 1000);
    client('move', { move: { type: 'stroke', state: 'filled', cells: [[0, 1], [0, 1], [0, 5], [2, 1]] } }, 2000); // no cell times
    client('move', { move: { type: 'stroke', state: 'crossed', cells: [[0, 1], [0, 2]], cell_ms: [-100, 0] } }, 2500);
    client('move', { move: { type: 'clear', row: 0, col: 1 } }, 3000);
    client('move', { move: { type: 'reveal', row: 1, col: 0, state: 'crossed' } }, 3500, 'system');
    client('move', { move: { type: 'reset' } }, 4000);
    client('move', { move: { type: 'cross', row: 1, col: 0 } }, 4500);
    const log = sessionFromRecords(records);
    const got = sessionTrajectory(log, puzzles).map((r) => [r.change, r.move, r.index, r.action, r.stroke, r.stroke_cell, r.t_ms, r.gap_ms, r.row, r.col, r.before, r.after, r.correct, r.board_right * 9, r.wrong_cells, r.reasoning, r.backtrack]);
    expect(got).toEqual([
      // an untimed stroke is one point; its repeated cell and the cell outside the board change nothing
      [1, 1, 1, 'stroke', 1, 0, 1000, null, 0, 1, 'unknown', 'filled', true, 1, 0, 'overlap', false],
      [2, 1, 1, 'stroke', 1, 3, 1000, null, 2, 1, 'unknown', 'filled', true, 2, 0, 'overlap', false],
      // (0,1) flipped to crossed: its row and column (with the mark set aside) force it filled: a guess, and wrong
      [3, 2, 2, 'stroke', 2, 0, 1400, 400, 0, 1, 'filled', 'crossed', false, 1, 1, 'guess', false],
      // (0,2) crossed next to a crossed (0,1): row [2] has no placement left, so nothing on this board is credited
      [4, 2, 2, 'stroke', 2, 1, 1500, 100, 0, 2, 'unknown', 'crossed', true, 2, 1, 'guess', false],
      [5, 3, 3, 'clear', null, null, 2000, 500, 0, 1, 'crossed', 'unknown', false, 2, 0, null, true],
      [6, 4, null, 'reveal', null, null, 2500, null, 1, 0, 'unknown', 'crossed', true, 3, 0, 'overlap', false],
      // the reset, 1 s after the clear (the reveal is no participant action), in row-major order
      [7, 5, 4, 'reset', null, null, 3000, 1000, 0, 2, 'crossed', 'unknown', false, 2, 0, null, true],
      [8, 5, 4, 'reset', null, null, 3000, 1000, 1, 0, 'crossed', 'unknown', false, 1, 0, null, true],
      [9, 5, 4, 'reset', null, null, 3000, 1000, 2, 1, 'filled', 'unknown', false, 0, 0, null, true],
      // crossed again as the reveal had it: overlap, and backtracking (a state the cell held)
      [10, 6, 5, 'cross', null, null, 3500, 500, 1, 0, 'unknown', 'crossed', true, 1, 0, 'overlap', true],
    ]);
    const { attempts } = sessionSignals(log, puzzles);
    expect([attempts[0].errors, attempts[0].final_wrong_cells]).toEqual([0, 0]);
  });
});

describe('line order, a defined statistic', () => {
  // 4x4: row 0 [4], column 0 '##.#' [2 1] and column 3 [4] fill their lines exactly (footholds); the rest do not.
  const F: SignalPuzzle = { id: 'f4', width: 4, height: 4, solution: ['####', '#..#', '.#.#', '#..#'] };
  const mark = (i: number, row: number, col: number): TrajectoryRow => ({
    participant_id: 'sL', puzzle_id: 'f4', kind: 'nonogram', position: 1, attempt: 1, change: i + 1, move: i + 1, index: i + 1, action: 'fill', source: 'mouse',
    stroke: null, stroke_cell: null, t_ms: 1000 * (i + 1), gap_ms: i ? 1000 : null, row, col, before: 'unknown', after: 'filled', correct: true, error: false,
    board_right: 0, wrong_cells: 0, reasoning: 'line', backtrack: false,
  });
  const order = (cells: [number, number][]) => attemptStrategies(cells.map(([r, c], i) => mark(i, r, c)), new Map([['f4', F]]))[0];

  it('calls a sweep row by row row-major, a start on foothold lines foothold-driven, and the rest scattered', () => {
    // forward in reading order 6 of 7 pairs, 5 of them in their row
    const sweep = order([[1, 0], [1, 1], [1, 2], [2, 0], [2, 1], [2, 2], [3, 1], [3, 2]]);
    expect(sweep.line_order).toBe('row-major');
    const feet = order([[0, 0], [0, 1], [1, 3], [2, 3], [2, 1], [1, 1], [2, 2], [1, 2]]);
    expect(feet.foothold_early_share).toBe(1); // the first ceil(8 / 4) = 2 marks, (0,0) (0,1), are on row 0
    expect(feet.line_order).toBe('foothold-driven');
    const scattered = order([[2, 2], [1, 1], [3, 2], [1, 2], [2, 1], [3, 1], [1, 0], [2, 0]]);
    expect(scattered.line_order).toBe('scattered');
    expect(order([[1, 1], [1, 2], [2, 2]]).line_order).toBeNull(); // under four marks
  });

  it("states the board's own foothold share beside the early share", () => {
    // row 0 '####' [4], column 0 '##.#' [2 1] and column 3 '####' [4] fill their lines: 4 + 3 + 3 = 10 of 16 cells
    expect(order([[1, 1]]).foothold_board_share).toBe(10 / 16);
  });
});
