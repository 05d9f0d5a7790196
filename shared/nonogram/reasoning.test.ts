// The reasoning labels against bots and exact search: line-solving bots get line labels, guesses get 'guess', every other label is sound.
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../random.ts';
import { EMPTY, FILLED, UNKNOWN, cluesOf, createGrid, gridFromRows, type Clues } from './grid.ts';
import { solveLineInPlace } from './lineSolver.ts';
import { countSolutions, propagate } from './solver.ts';
import { LINE_FAMILY, MoveReasoning, type ReasoningLabel } from './reasoning.ts';
import { sessionFromRecords } from '../signals/session.ts';
import { sessionTrajectory } from '../signals/trajectory.ts';
import type { SignalPuzzle } from '../signals/attempts.ts';

function randomSolution(rng: Rng, width: number, height: number, density = 0.55): string[] {
  return Array.from({ length: height }, () => Array.from({ length: width }, () => (rng.next() < density ? '#' : '.')).join(''));
}

type Cell = { row: number; col: number; value: number };

/** The line bot's next cells: the first line (rows, then columns) whose complete line solving sets some cell, and those cells. */
function lineStep(clues: Clues, cells: Uint8Array, width: number, height: number): Cell[] {
  for (let r = 0; r < height; r++) {
    const line = cells.slice(r * width, (r + 1) * width);
    if (solveLineInPlace(clues.rows[r], line, 0, width, 1) > 0)
      return [...line].flatMap((v, c) => (cells[r * width + c] === UNKNOWN && v !== UNKNOWN ? [{ row: r, col: c, value: v }] : []));
  }
  for (let c = 0; c < width; c++) {
    const line = Uint8Array.from({ length: height }, (_, r) => cells[r * width + c]);
    if (solveLineInPlace(clues.cols[c], line, 0, height, 1) > 0)
      return [...line].flatMap((v, r) => (cells[r * width + c] === UNKNOWN && v !== UNKNOWN ? [{ row: r, col: c, value: v }] : []));
  }
  return [];
}

/**
 * A bot playing one puzzle: line steps while there are any; at a stall (told to guess) it marks the first unknown cell
 * its solution's way when neither value of it contradicts by propagation (solver.ts's propagate, from scratch).
 */
function playBot(solution: string[], guess: boolean): { moves: Cell[]; guessed: Set<number> } {
  const clues = cluesOf(gridFromRows(solution));
  const width = solution[0].length, height = solution.length;
  const cells = new Uint8Array(width * height);
  const moves: Cell[] = [];
  const guessed = new Set<number>();
  for (;;) {
    const step = lineStep(clues, cells, width, height);
    if (step.length) {
      for (const m of step) {
        cells[m.row * width + m.col] = m.value;
        moves.push(m);
      }
      continue;
    }
    if (!guess) break;
    let picked = -1;
    for (let i = 0; i < cells.length && picked < 0; i++) {
      if (cells[i] !== UNKNOWN) continue;
      const open = [FILLED, EMPTY].every((v) => {
        const g = createGrid(width, height);
        g.cells.set(cells);
        g.cells[i] = v;
        return propagate(clues, g).status !== 'contradiction';
      });
      if (open) picked = i;
    }
    if (picked < 0) break;
    const value = solution[(picked / width) | 0][picked % width] === '#' ? FILLED : EMPTY;
    cells[picked] = value;
    guessed.add(moves.length);
    moves.push({ row: (picked / width) | 0, col: picked % width, value });
  }
  return { moves, guessed };
}

/** The bot's moves as a session log (one puzzle, one attempt, a fill or cross a second apart), through the trajectory. */
function trajectoryOf(id: string, solution: string[], moves: Cell[]) {
  const T0 = 1_780_000_000_000;
  const at = (seq: number, t: number) => ({ session_id: 'bot', seq, step: 1, phase: 'puzzles', puzzle_id: id, position: 1, t_mono: t, t_wall: T0 + t, source: 'mouse', origin: 'client', t_server: T0 + t, config_hash: 'h', app_version: '0' });
  const records: object[] = [{ ...at(1, 0), type: 'step_start', payload: { kind: 'puzzle' } }];
  moves.forEach((m, k) => records.push({ ...at(k + 2, 1000 * (k + 1)), type: 'move', payload: { move: { type: m.value === FILLED ? 'fill' : 'cross', row: m.row, col: m.col } } }));
  const puzzle: SignalPuzzle = { id, width: solution[0].length, height: solution.length, solution };
  return sessionTrajectory(sessionFromRecords(records), new Map([[id, puzzle]]));
}

describe('reasoning labels of bots', () => {
  it('a bot whose every move is forced by line solving gets only line labels (overlap or line)', () => {
    const rng = createRng(37);
    let played = 0;
    const seen = new Set<ReasoningLabel>();
    for (let t = 0; t < 60; t++) {
      const w = 4 + rng.int(5), h = 4 + rng.int(5);
      const solution = randomSolution(rng, w, h);
      const { moves } = playBot(solution, false);
      const rows = trajectoryOf(`line${t}`, solution, moves);
      expect(rows.length).toBe(moves.length);
      for (const r of rows) {
        expect(['overlap', 'line'], `${solution.join('/')} (${r.row},${r.col})`).toContain(r.reasoning);
        expect(LINE_FAMILY.has(r.reasoning as ReasoningLabel)).toBe(true);
        seen.add(r.reasoning as ReasoningLabel);
      }
      played += rows.length;
    }
    expect(played).toBeGreaterThan(300);
    expect([...seen].sort()).toEqual(['line', 'overlap']);
  });

  it('a bot told to guess gets guess exactly where it guessed, line labels elsewhere', () => {
    const rng = createRng(38);
    let guesses = 0;
    for (let t = 0; t < 80; t++) {
      const w = 4 + rng.int(4), h = 4 + rng.int(4);
      const solution = randomSolution(rng, w, h, 0.5);
      const { moves, guessed } = playBot(solution, true);
      const rows = trajectoryOf(`guess${t}`, solution, moves);
      rows.forEach((r, k) => {
        if (guessed.has(k)) expect(r.reasoning, `${solution.join('/')} move ${k}`).toBe('guess');
        else expect(['overlap', 'line'], `${solution.join('/')} move ${k}`).toContain(r.reasoning);
      });
      guesses += guessed.size;
    }
    expect(guesses).toBeGreaterThan(10);
  });
});

describe('reasoning labels against exact search', () => {
  it('every label but guess is sound on a board whose marks are right: the value holds in every solution', () => {
    const rng = createRng(39);
    const counts: Record<string, number> = {};
    for (let t = 0; t < 150; t++) {
      const w = 5 + rng.int(4), h = 5 + rng.int(4);
      const solution = randomSolution(rng, w, h, 0.5);
      const clues = cluesOf(gridFromRows(solution));
      const want = Uint8Array.from({ length: w * h }, (_, i) => (solution[(i / w) | 0][i % w] === '#' ? FILLED : EMPTY));
      const board = new Uint8Array(w * h);
      for (let i = 0; i < board.length; i++) if (rng.next() < 0.1) board[i] = want[i];
      const labeller = new MoveReasoning(clues);
      for (let i = 0; i < board.length; i++) {
        if (board[i] !== UNKNOWN) continue;
        for (const value of [FILLED, EMPTY]) {
          const label = labeller.label(board, i, value);
          counts[label] = (counts[label] ?? 0) + 1;
          if (label === 'guess') continue;
          const other = createGrid(w, h);
          other.cells.set(board);
          other.cells[i] = value === FILLED ? EMPTY : FILLED;
          expect(countSolutions(clues, 1, { grid: other }).count, `${solution.join('/')} cell ${i} ${label}`).toBe(0);
        }
      }
    }
    for (const label of ['overlap', 'line', 'two-lines', 'probing', 'guess']) expect(counts[label], label).toBeGreaterThan(0);
  });

  it('the propagation it keeps between changes gives the labels a fresh labeller gives, through marks, flips, clears and undos of the last mark', () => {
    const rng = createRng(40);
    for (let t = 0; t < 80; t++) {
      const w = 5 + rng.int(3), h = 5 + rng.int(3);
      const solution = randomSolution(rng, w, h, 0.5);
      const clues = cluesOf(gridFromRows(solution));
      const kept = new MoveReasoning(clues);
      const board = new Uint8Array(w * h);
      // the second half of the boards: a participant who often undoes (clears the cell they marked last)
      const undoing = t >= 40;
      let last = -1;
      for (let k = 0; k < 60; k++) {
        if (undoing && last >= 0 && board[last] !== UNKNOWN && rng.next() < 0.3) {
          const before = board[last];
          board[last] = UNKNOWN;
          kept.changed(last, before, UNKNOWN);
          continue;
        }
        const i = rng.int(board.length);
        last = i;
        const right = undoing ? 0.97 : 0.85;
        const value = rng.next() < (undoing ? 0.05 : 0.15) ? UNKNOWN : solution[(i / w) | 0][i % w] === '#' ? (rng.next() < right ? FILLED : EMPTY) : rng.next() < right ? EMPTY : FILLED;
        if (value === board[i]) continue;
        if (value !== UNKNOWN) expect(kept.label(board, i, value), `step ${k}`).toBe(new MoveReasoning(clues).label(board, i, value));
        const before = board[i];
        board[i] = value;
        kept.changed(i, before, value);
      }
    }
  });
});
