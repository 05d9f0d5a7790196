// Tests for the log's shared rules: the clock, board moves, the next step, how a session ends, errors, wrong cells, gaps and pauses.
import { describe, expect, it } from 'vitest';
import { BoardReplay, applyMove, boardRows, countWrongCells, initialBoard, type BoardState } from '../game/board.ts';
import { createRng } from '../random.ts';
import type { Move } from '../schema/move.ts';
import { stampClient } from '../schema/stamp.ts';
import { BOARD_MOVES, actionGaps, elapsedMs, isPause, paintedCells, paintedCellsInReplay, sessionEndOf, stepAfter, wrongCells, type MoveRecord } from './rules.ts';

const T0 = 1_780_000_000_000;

describe('elapsedMs (the one clock rule)', () => {
  it('uses the monotonic clock when it agrees with the wall clock within a second', () => {
    expect(elapsedMs({ t_mono: 100, t_wall: T0 }, { t_mono: 350, t_wall: T0 + 260 })).toBe(250);
    expect(elapsedMs({ t_mono: 100, t_wall: T0 }, { t_mono: 1_100, t_wall: T0 + 2_000 })).toBe(1_000); // 1 s apart: still agrees
  });
  it('uses the wall clock (never negative) when the monotonic clock went back or disagrees (a reload)', () => {
    expect(elapsedMs({ t_mono: 9_000, t_wall: T0 }, { t_mono: 10, t_wall: T0 + 3_000 })).toBe(3_000);
    // The new page has run longer than the old one had: positive, but 52 s off the wall clock.
    expect(elapsedMs({ t_mono: 6_000, t_wall: T0 }, { t_mono: 8_000, t_wall: T0 + 54_000 })).toBe(54_000);
    expect(elapsedMs({ t_mono: 9_000, t_wall: T0 }, { t_mono: 10, t_wall: T0 - 5_000 })).toBe(0);
  });
});

describe('board moves, the next step, the end of a session', () => {
  it('names the moves that can change the board', () => {
    expect([...BOARD_MOVES].sort()).toEqual(['clear', 'cross', 'fill', 'pencil', 'reset', 'reveal', 'reveal_digit', 'set_digit', 'stroke', 'undo']);
    // Every move outside the set leaves every board as it is.
    const board = applyMove(initialBoard(3, 3), { type: 'fill', row: 1, col: 1 });
    for (const move of [{ type: 'hint' }, { type: 'submit' }, { type: 'skip' }] as Move[]) expect(applyMove(board, move)).toBe(board);
  });
  it('moves past the step a step_end ends, never back', () => {
    expect(stepAfter(0, { type: 'step_end', step: 0 })).toBe(1);
    expect(stepAfter(5, { type: 'step_end', step: 2 })).toBe(5);
    expect(stepAfter(3, { type: 'move', step: 7 })).toBe(3);
  });
  it('ends a session at the step_end that declines or screens out, not at the consent record', () => {
    expect(sessionEndOf({ type: 'step_end', payload: { kind: 'consent', reason: 'declined' } })).toBe('declined');
    expect(sessionEndOf({ type: 'step_end', payload: { kind: 'survey', reason: 'screened_out' } })).toBe('screened_out');
    expect(sessionEndOf({ type: 'step_end', payload: { kind: 'puzzle', reason: 'skipped' } })).toBeNull();
    expect(sessionEndOf({ type: 'consent', payload: { agreed: false } })).toBeNull();
  });
});

describe('errors and wrong cells', () => {
  const solution = ['##.', '.#.', '###'];
  const cellOf = (i: number) => [Math.floor(i / 3), i % 3];

  it('counts an error for each cell a fill or stroke turns filled where the solution is empty (brute force over random play)', () => {
    const rng = createRng(15);
    const kinds = ['fill', 'cross', 'clear', 'stroke', 'reveal', 'undo', 'reset'] as const;
    for (let game = 0; game < 200; game++) {
      let board: BoardState = initialBoard(3, 3);
      const replay = new BoardReplay(3, 3);
      for (let k = 0; k < 12; k++) {
        const kind = kinds[rng.int(kinds.length)];
        const [r, c] = [rng.int(3), rng.int(3)];
        const move: Move =
          kind === 'stroke'
            ? { type: 'stroke', state: rng.int(2) ? 'filled' : 'crossed', cells: [[r, 0], [r, 1], [r, 2]] }
            : kind === 'reveal'
              ? { type: 'reveal', row: r, col: c, state: 'filled' }
              : kind === 'undo' || kind === 'reset'
                ? { type: kind }
                : { type: kind, row: r, col: c };
        const next = applyMove(board, move);
        const before = boardRows(board.grid), after = boardRows(next.grid);
        const turnedFilled = [...Array(9).keys()].filter((i) => { const [rr, cc] = cellOf(i); return after[rr][cc] === '#' && before[rr][cc] !== '#'; });
        const expected = move.type === 'fill' || move.type === 'stroke' ? turnedFilled.filter((i) => { const [rr, cc] = cellOf(i); return solution[rr][cc] !== '#'; }) : [];
        const got = paintedCells(move, board, next, solution);
        replay.apply(move);
        const onReplay = paintedCellsInReplay(move, replay, solution);
        expect(onReplay.filled, JSON.stringify(move)).toBe(got.filled);
        expect([...onReplay.errors].sort(), JSON.stringify(move)).toEqual([...got.errors].sort());
        expect(got.errors, JSON.stringify(move)).toEqual(expected);
        expect(got.filled).toBe(move.type === 'fill' || move.type === 'stroke' ? turnedFilled.length : 0);
        // Wrong cells on the board: the same count the server's check reports.
        expect(wrongCells(next, solution).size).toBe(countWrongCells(after, solution));
        board = next;
      }
    }
  });
});

describe('gaps and pauses', () => {
  let seq = 0;
  const at = (t: number, move: Move, wall = T0 + t): MoveRecord =>
    stampClient({ session_id: 's', seq: ++seq, step: 3, phase: 'puzzles', puzzle_id: 'p', position: 1, t_mono: t, t_wall: wall, source: 'mouse' }, 'move', { move }) as MoveRecord;

  it('takes one point per action, or per timed cell of a drag at the cell level', () => {
    const actions = [
      at(1_000, { type: 'fill', row: 0, col: 0 }),
      at(4_000, { type: 'stroke', state: 'filled', cells: [[1, 0], [1, 1]], cell_ms: [-300, -250] }),
      at(4_500, { type: 'submit' }),
    ];
    expect(actionGaps(actions).map((g) => [g.action, g.cell, g.seconds])).toEqual([[2, 0, 2.7], [2, 1, 0.05], [3, null, 0.75]]);
    expect(actionGaps(actions, 'action').map((g) => [g.action, g.cell, g.seconds])).toEqual([[2, null, 3], [3, null, 0.5]]);
    expect(actionGaps([])).toEqual([]);
  });

  it('is a pause only when longer than the threshold', () => {
    expect(isPause(2.36, 2.36)).toBe(false);
    expect(isPause(2.361, 2.36)).toBe(true);
  });
});
