import { describe, expect, it } from 'vitest';
// The board engine: applyMove's rules, undo and reset, replay of a move log, checking against a solution.
import { BoardReplay, applyMove, boardRows, countWrongCells, gridFromBoardRows, initialBoard, matchesSolution, replayMoves } from './board.ts';
import type { Move } from '../schema/move.ts';
import { createRng, type Rng } from '../random.ts';
import { UNKNOWN } from '../nonogram/grid.ts';

describe('applyMove', () => {
  it('fills, crosses and toggles back to unknown', () => {
    let s = initialBoard(3, 2);
    s = applyMove(s, { type: 'fill', row: 0, col: 1 });
    s = applyMove(s, { type: 'cross', row: 1, col: 2 });
    expect(boardRows(s.grid)).toEqual(['?#?', '??x']);
    s = applyMove(s, { type: 'fill', row: 0, col: 1 });
    expect(boardRows(s.grid)).toEqual(['???', '??x']);
    expect(s.history).toHaveLength(3);
  });

  it('undoes a stroke as one unit and a reset as one unit', () => {
    let s = initialBoard(4, 1);
    s = applyMove(s, { type: 'fill', row: 0, col: 0 });
    s = applyMove(s, { type: 'stroke', state: 'crossed', cells: [[0, 1], [0, 2], [0, 3]] });
    expect(boardRows(s.grid)).toEqual(['#xxx']);
    s = applyMove(s, { type: 'reset' });
    expect(boardRows(s.grid)).toEqual(['????']);
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['#xxx']);
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['#???']);
    s = applyMove(s, { type: 'undo' });
    s = applyMove(s, { type: 'undo' });
    expect(boardRows(s.grid)).toEqual(['????']);
  });

  it('leaves the state untouched for non-board moves and no-op paints', () => {
    const s = applyMove(initialBoard(2, 2), { type: 'fill', row: 0, col: 0 });
    for (const m of [{ type: 'hint' }, { type: 'submit' }, { type: 'skip' }, { type: 'stroke', state: 'filled', cells: [[0, 0]] }] as Move[])
      expect(applyMove(s, m)).toBe(s);
    expect(applyMove(s, { type: 'fill', row: 5, col: 5 })).toBe(s);
  });
});

/*
 * Property test: random move sequences (seeded) on small boards, against a model of what the participant sees written
 * straight from the rules, in another representation (rows of characters and a stack of earlier rows), not from
 * applyMove: fill toggles filled/unknown, cross toggles crossed/unknown, clear empties a cell, a stroke or a reveal
 * paints its cells; a move that changes nothing is not an undo step; undo brings back the board before the last
 * change; reset empties the board as one undoable change; hint, submit and skip leave it alone; cells off the board
 * are ignored.
 */
interface Seen {
  rows: string[];
  earlier: string[][];
}
const CHAR = { filled: '#', crossed: 'x', unknown: '?' } as const;

function see(board: Seen, move: Move): Seen {
  const width = board.rows[0].length;
  const paint = (cells: [number, number][], to: (ch: string) => string): Seen => {
    const rows = board.rows.map((r) => r.split(''));
    for (const [r, c] of cells) if (r >= 0 && c >= 0 && r < rows.length && c < width) rows[r][c] = to(rows[r][c]);
    const next = rows.map((r) => r.join(''));
    return next.join('/') === board.rows.join('/') ? board : { rows: next, earlier: [...board.earlier, board.rows] };
  };
  switch (move.type) {
    case 'fill':
      return paint([[move.row, move.col]], (ch) => (ch === '#' ? '?' : '#'));
    case 'cross':
      return paint([[move.row, move.col]], (ch) => (ch === 'x' ? '?' : 'x'));
    case 'clear':
      return paint([[move.row, move.col]], () => '?');
    case 'stroke':
      return paint(move.cells, () => CHAR[move.state]);
    case 'reveal':
      return paint([[move.row, move.col]], () => CHAR[move.state]);
    case 'reset':
      return paint(board.rows.flatMap((row, r) => [...row].map((_, c) => [r, c] as [number, number])), () => '?');
    case 'undo':
      return board.earlier.length === 0 ? board : { rows: board.earlier.at(-1)!, earlier: board.earlier.slice(0, -1) };
    default:
      return board;
  }
}

/** A random move on a width x height board; now and then a cell just off the board. */
function randomMove(rng: Rng, width: number, height: number): Move {
  const row = () => rng.int(height + 1);
  const col = () => rng.int(width + 1);
  const states = ['filled', 'crossed', 'unknown'] as const;
  const roll = rng.int(20);
  if (roll < 6) return { type: 'fill', row: row(), col: col() };
  if (roll < 9) return { type: 'cross', row: row(), col: col() };
  if (roll < 10) return { type: 'clear', row: row(), col: col() };
  if (roll < 12) {
    const horizontal = rng.next() < 0.5;
    const [r0, c0, n] = [row(), col(), 1 + rng.int(4)];
    const cells = Array.from({ length: n }, (_, k) => (horizontal ? [r0, c0 + k] : [r0 + k, c0]) as [number, number]);
    return { type: 'stroke', state: states[rng.int(3)], cells };
  }
  if (roll < 13) return { type: 'reveal', row: row(), col: col(), state: rng.next() < 0.5 ? 'filled' : 'crossed' };
  if (roll < 17) return { type: 'undo' };
  if (roll < 18) return { type: 'reset' };
  return { type: (['hint', 'submit', 'skip'] as const)[rng.int(3)] };
}

describe('a move log (seeded property test)', () => {
  const cases = Array.from({ length: 300 }, (_, seed) => {
    const rng = createRng(1_000 + seed);
    const width = 1 + rng.int(6);
    const height = 1 + rng.int(5);
    return { seed, width, height, moves: Array.from({ length: rng.int(80) }, () => randomMove(rng, width, height)) };
  });

  it('replays to the board the participant saw after every move', () => {
    for (const { seed, width, height, moves } of cases) {
      let seen: Seen = { rows: Array.from({ length: height }, () => '?'.repeat(width)), earlier: [] };
      for (let i = 0; i < moves.length; i++) {
        seen = see(seen, moves[i]);
        const replayed = replayMoves(width, height, moves.slice(0, i + 1));
        expect(boardRows(replayed.grid), `seed ${seed}, after move ${i} (${JSON.stringify(moves[i])})`).toEqual(seen.rows);
        expect(replayed.history.length, `seed ${seed}, undo depth after move ${i}`).toBe(seen.earlier.length);
      }
    }
  });

  it('is inverted by an undo after any move that changed the board; a move that changed nothing leaves it as it was', () => {
    for (const { seed, width, height, moves } of cases) {
      let s = initialBoard(width, height);
      for (const [i, move] of moves.entries()) {
        const next = applyMove(s, move);
        if (move.type === 'undo') expect(next.history.length).toBe(Math.max(0, s.history.length - 1));
        else if (boardRows(next.grid).join('/') !== boardRows(s.grid).join('/')) {
          const back = applyMove(next, { type: 'undo' });
          expect(boardRows(back.grid), `seed ${seed}, move ${i}`).toEqual(boardRows(s.grid));
          expect(back.history).toHaveLength(s.history.length);
        } else expect(next, `seed ${seed}, move ${i}: no change, no undo step`).toBe(s);
        s = next;
      }
    }
  });

  it('is cleared by a reset, which one undo takes back', () => {
    for (const { seed, width, height, moves } of cases) {
      const s = replayMoves(width, height, moves);
      const cleared = applyMove(s, { type: 'reset' });
      expect(boardRows(cleared.grid), `seed ${seed}`).toEqual(Array.from({ length: height }, () => '?'.repeat(width)));
      if (cleared === s) expect(s.grid.cells.every((c) => c === UNKNOWN), `seed ${seed}: only an empty board resets to itself`).toBe(true);
      else expect(boardRows(applyMove(cleared, { type: 'undo' }).grid)).toEqual(boardRows(s.grid));
      expect(boardRows(gridFromBoardRows(boardRows(s.grid), width, height))).toEqual(boardRows(s.grid));
    }
  });
});

describe('BoardReplay (the mutable replay the analysis uses)', () => {
  it('gives applyMove\'s board and undo depth after every move of 300 random logs, and the cells each move changed', () => {
    for (let seed = 0; seed < 300; seed++) {
      const rng = createRng(5_000 + seed);
      const width = 1 + rng.int(6);
      const height = 1 + rng.int(5);
      const moves = Array.from({ length: rng.int(120) }, () => randomMove(rng, width, height));
      let s = initialBoard(width, height);
      const replay = new BoardReplay(width, height);
      for (const [i, move] of moves.entries()) {
        const before = s.grid.cells;
        s = applyMove(s, move);
        replay.apply(move);
        const at = `seed ${seed}, move ${i} (${JSON.stringify(move)})`;
        expect(boardRows(replay.grid), at).toEqual(boardRows(s.grid));
        expect(replay.depth, at).toBe(s.history.length);
        if (move.type !== 'undo') {
          const changed = replay.changed.slice(replay.from, replay.to);
          const expected = [...s.grid.cells.keys()].filter((c) => s.grid.cells[c] !== before[c]);
          expect([...changed].sort((a, b) => a - b), at).toEqual(expected);
          expect(replay.before.slice(replay.from, replay.to), at).toEqual(changed.map((c) => before[c]));
        }
      }
    }
  });
});

describe('checking against a solution', () => {
  it('treats crossed and unknown alike and counts wrong cells', () => {
    expect(matchesSolution(['#x', '?#'], ['#.', '.#'])).toBe(true);
    expect(matchesSolution(['#x', '##'], ['#.', '.#'])).toBe(false);
    expect(countWrongCells(['#x', '#x'], ['#.', '.#'])).toBe(2);
  });
});
